/**
 * What setting up the runtime's watch of a root costs (contract §28a, "the build itself is
 * one walk"; docs/benchmarks.md): one recursive `Deno.watchFs` call on the root (the
 * runtime's watcher walks the tree itself, following links) against one call, not
 * recursive, naming the root and every folder below it (the watch a fill could set up from
 * its own reads of the tree; the root first, so that each event matches the call's first
 * path). Each way in a process of its own: the set-up's time, then 300 files written one
 * after another in the deepest folder listed, timed until the last one's creation is read.
 * Run: `deno task bench:watch-setup --sizes 500k,home-2m-184k`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import path from "node:path";
import os from "node:os";
import { ensureTree } from "./tree.ts";

const WRITES = 300;

if (Deno.args[0] === "--one") {
  const [, root, how] = Deno.args as [string, string, "recursive" | "folders"];
  const folders: string[] = [];
  for (const stack = [root]; stack.length > 0;) {
    const dir = stack.pop()!;
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isDirectory) continue;
      folders.push(path.join(dir, entry.name));
      stack.push(path.join(dir, entry.name));
    }
  }
  const t0 = performance.now();
  const watcher = how === "recursive"
    ? Deno.watchFs(root, { recursive: true })
    : Deno.watchFs([root, ...folders], { recursive: false });
  const setupMs = performance.now() - t0;
  const deep = folders.at(-1)!;
  const names = Array.from({ length: WRITES }, (_, i) => path.join(deep, `watch-setup-${i}`));
  const last = names.at(-1)!;
  const seen = (async () => {
    for await (const event of watcher) {
      if (event.kind === "create" && event.paths.includes(last)) return;
    }
  })();
  const t1 = performance.now();
  for (const name of names) await Deno.writeTextFile(name, "x");
  await seen;
  const eventsMs = performance.now() - t1;
  for (const name of names) Deno.removeSync(name);
  watcher.close();
  console.log(
    `| ${how} | ${folders.length + 1} | ${setupMs.toFixed(0)} | ${eventsMs.toFixed(0)} |`,
  );
  Deno.exit(0);
}

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "500k,home-2m-184k" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
  },
});
for (const size of values.sizes.split(",")) {
  const { root } = ensureTree(values.dir, size);
  console.log(`\n## ${size}\n`);
  console.log(
    `| watch | folders | set-up, ms | ${WRITES} files written until the last is read, ms |`,
  );
  console.log("|---|---:|---:|---:|");
  for (const how of ["recursive", "folders"]) {
    const self = new URL(import.meta.url).pathname;
    const args = ["run", "--allow-read", "--allow-write", self, "--one", root, how];
    await new Deno.Command(Deno.execPath(), { args, stdout: "inherit" }).output();
  }
}
