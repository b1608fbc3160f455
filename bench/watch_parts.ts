/**
 * What an event costs the runtime's watcher when a root is watched in parts (contract §18,
 * "The watch's reach"; docs/index.md): a tree of 700 folders, watched as 1, 100, 256 and 700
 * parts, the way the watch worker did before (one recursive `Deno.watchFs` call on every
 * part) and the way it does now (`watchParts`: a call that holds the parts' watches and
 * ignores their events, and a call on the root, not recursive, that reads them); 3,000
 * events (one file's times set each) in the last part, timed from the first write to the
 * last event read; each count in a process of its own (a path watched again in the same
 * process, after a watch of its folder above was closed, raised no event here). Run:
 * `deno task bench:watch-parts`.
 *
 * @module
 */
import path from "node:path";
import os from "node:os";

const FOLDERS = 700;
const EVENTS = 3_000;

if (Deno.args.length === 0) {
  console.log(`| parts | one call on every part, µs an event | \`watchParts\`, µs an event |`);
  console.log("|---:|---:|---:|");
  for (const n of [1, 100, 256, 700]) {
    const self = new URL(import.meta.url).pathname;
    const args = ["run", "--allow-read", "--allow-write", "--allow-env", self, String(n)];
    await new Deno.Command(Deno.execPath(), { args, stdout: "inherit" }).output();
  }
  Deno.exit(0);
}

const root = Deno.makeTempDirSync({ prefix: "fts-parts-", dir: os.tmpdir() });
for (let d = 0; d < FOLDERS; d++) {
  Deno.mkdirSync(path.join(root, `d${d}`));
  if ([99, 255, FOLDERS - 1].includes(d)) {
    for (let i = 0; i < EVENTS; i++) {
      Deno.writeFileSync(path.join(root, `d${d}`, `f${i}`), new Uint8Array());
    }
  }
}

/** Milliseconds from the first write to the last of `EVENTS` events read from `read`. */
async function timed(read: Deno.FsWatcher, folder: string, stamp: number): Promise<number> {
  const it = read[Symbol.asyncIterator]();
  await new Promise((r) => setTimeout(r, 300)); // the watches in place
  const t0 = performance.now();
  for (let i = 0; i < EVENTS; i++) Deno.utimeSync(path.join(folder, `f${i}`), stamp + i, stamp + i);
  let got = 0;
  let last = t0;
  while (got < EVENTS) {
    const next = await Promise.race([
      it.next(),
      new Promise((r) => setTimeout(() => r(null), 3000)),
    ]);
    if (next === null) break;
    got++;
    last = performance.now();
  }
  return (last - t0) / got;
}

let stamp = 1_000_000;
for (const n of [Number(Deno.args[0])]) {
  const parts = n === 1 ? [root] : Array.from({ length: n }, (_, i) => path.join(root, `d${i}`));
  const folder = path.join(root, `d${n === 1 ? FOLDERS - 1 : n - 1}`);
  const before = Deno.watchFs(parts, { recursive: true });
  const old = await timed(before, folder, stamp += EVENTS);
  before.close();
  let now = old;
  if (n > 1) {
    const events = Deno.watchFs([root], { recursive: false });
    const holder = Deno.watchFs(parts, { recursive: true, ignore: [root] });
    now = await timed(events, folder, stamp += EVENTS);
    events.close();
    holder.close();
  }
  console.log(`| ${n} | ${(old * 1000).toFixed(0)} | ${(now * 1000).toFixed(0)} |`);
}
Deno.removeSync(root, { recursive: true });
