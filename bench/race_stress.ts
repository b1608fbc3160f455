/**
 * `deno task bench:races [--runs N] [--seconds S] [--calls C] [--seed X] [--fill] [--hogs H]`: the live
 * index under a race, run many times (issue 40): a mutator process changes a tree (files made,
 * written, touched, renamed, removed, hard-linked; folders made, removed and renamed, also
 * into another folder) while 200 calls run at once on
 * the indexed server, a third of them cancelled; then, once the tree is quiet, the indexed
 * server's answers must equal a walking server's, at once and a few seconds later. With
 * `--fill`, the mutator starts before the server, so it races the fill. Two CPU-bound
 * processes run beside it (`--hogs N`: N). Prints each run's differences and a count.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "5" },
    seconds: { type: "string", default: "6" },
    calls: { type: "string", default: "200" },
    seed: { type: "string", default: "1" },
    fill: { type: "boolean", default: false },
    hogs: { type: "string", default: "2" },
  },
});
const RUNS = Number(values.runs);
const SECONDS = Number(values.seconds);
const CALLS = Number(values.calls);

async function server(root: string, index: "on" | "off"): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, MAIN, "serve", root],
    env: { INDEX: index, TZ: "UTC" },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-races", version: "0" });
  await client.connect(transport);
  return client;
}

interface IndexInfo {
  state: string;
  reason?: string;
  answers?: { index: number; walk: number };
}

async function indexState(client: Client): Promise<IndexInfo> {
  const listed = await client.callTool({ name: "fs.list_roots", arguments: {} });
  return (listed.structuredContent as { roots: { index: IndexInfo }[] }).roots[0]!.index;
}

/** The mutator: its own process, seeded, for `seconds`. */
const MUTATOR = `
const [root, seconds, seed] = [Deno.args[0], Number(Deno.args[1]), Number(Deno.args[2])];
let s = seed >>> 0 || 1;
const rnd = (n) => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s % n; };
const end = Date.now() + seconds * 1000;
let ops = 0;
while (Date.now() < end) {
  const d = root + "/d" + rnd(20) + (rnd(3) === 0 ? "/s" + rnd(3) : "");
  const f = d + "/f" + rnd(60) + ".txt";
  try {
    switch (rnd(11)) {
      case 0: Deno.mkdirSync(d, { recursive: true }); Deno.writeTextFileSync(f, "x".repeat(rnd(100))); break;
      case 1: Deno.writeTextFileSync(f, "y".repeat(rnd(100))); break;
      case 2: { const t = new Date(Date.UTC(2020 + rnd(6), rnd(12), 1 + rnd(28))); Deno.utimeSync(f, t, t); break; }
      case 3: Deno.renameSync(f, d + "/f" + rnd(60) + ".txt"); break;
      case 4: Deno.removeSync(f); break;
      case 5: Deno.renameSync(f + ".tmp", f); break;
      case 6: Deno.writeTextFileSync(f + ".tmp", "save"); break;
      case 7: if (rnd(10) === 0) Deno.removeSync(d, { recursive: true }); else Deno.mkdirSync(d, { recursive: true }); break;
      case 8: Deno.renameSync(root + "/d" + rnd(20) + "/s" + rnd(3), root + "/d" + rnd(20) + "/s" + rnd(3)); break;
      case 9: Deno.linkSync(f, d + "/h" + rnd(10) + ".txt"); break;
      case 10: Deno.renameSync(root + "/d" + rnd(20), root + "/d" + rnd(20) + "/s" + (3 + rnd(2))); break;
    }
    ops++;
  } catch { /* raced itself */ }
  if (rnd(50) === 0) await new Promise((r) => setTimeout(r, 1));
}
console.log(ops);
`;

/** The tree: 20 folders of files and subfolders, and links to three of them (a workspace). */
function makeTree(root: string): void {
  Deno.mkdirSync(`${root}/node_modules`);
  for (let k = 0; k < 3; k++) Deno.symlinkSync(`../d${k}`, `${root}/node_modules/p${k}`);
  for (let d = 0; d < 20; d++) {
    for (let f = 0; f < 60; f += 2) {
      Deno.mkdirSync(`${root}/d${d}/s${f % 3}`, { recursive: true });
      const t = new Date(Date.UTC(2021, f % 12, 1 + d));
      for (const p of [`${root}/d${d}/f${f}.txt`, `${root}/d${d}/s${f % 3}/f${f}.txt`]) {
        Deno.writeTextFileSync(p, "z".repeat(f));
        Deno.utimeSync(p, t, t);
      }
    }
  }
}

const QUESTIONS: Record<string, unknown>[] = [
  { timeField: "modified", limit: 500, includeDirectories: true },
  { timeField: "modified", sort: "path_asc", limit: 500, includeDirectories: true },
  { timeField: "modified", sort: "time_asc", limit: 100 },
  { timeField: "modified", from: "2023-01-01T00:00:00Z", limit: 200 },
  { timeField: "modified", within: "1h", limit: 500 },
  { timeField: "modified", path: "d3", limit: 300, includeDirectories: true },
  { timeField: "created", limit: 200, includeUnknownTime: true },
];

/** A call's matches, or its error without the server's time (which differs by nature). */
function matchesOf(result: unknown): string {
  const content = (result as { structuredContent?: { matches?: unknown[] } }).structuredContent;
  if (content?.matches) return JSON.stringify(content.matches);
  return JSON.stringify(result).replace(/Server time: [^)]*\)/g, "Server time: …");
}

const hogs = Array.from({ length: Number(values.hogs) }, () =>
  new Deno.Command(Deno.execPath(), {
    args: ["eval", "for (;;) {}"],
    stdout: "null",
    stderr: "null",
  }).spawn());
// Stopped by a signal, the hogs go with it (they would keep loading the machine).
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => {
    for (const hog of hogs) hog.kill("SIGKILL");
    Deno.exit(130);
  });
}
let differing = 0;
try {
  for (let run = 0; run < RUNS; run++) {
    const seed = Number(values.seed) + run;
    const root = Deno.makeTempDirSync({ prefix: "fts-races-" });
    makeTree(root);
    const mutate = () =>
      new Deno.Command(Deno.execPath(), {
        args: ["eval", MUTATOR, root, String(SECONDS), String(seed)],
        stdout: "piped",
      }).output();
    const early = values.fill ? mutate() : null;
    const on = await server(root, "on");
    const off = await server(root, "off");
    if (!values.fill) {
      while ((await indexState(on)).state !== "ready") await new Promise((r) => setTimeout(r, 100));
    }
    const mutator = early ?? mutate();
    let at = 0;
    const calls = Array.from({ length: CALLS }, async (_, i) => {
      await new Promise((r) => setTimeout(r, ((i % 4) * SECONDS * 1000) / 4)); // 4 bursts
      const cancel = new AbortController();
      if (i % 3 === 0) setTimeout(() => cancel.abort(), (seed * 7 + i * 13) % 40);
      try {
        await on.callTool(
          { name: "fs.search_by_time", arguments: QUESTIONS[(i + at++) % QUESTIONS.length]! },
          undefined,
          { signal: cancel.signal },
        );
      } catch { /* cancelled */ }
    });
    const ops = new TextDecoder().decode((await mutator).stdout).trim();
    await Promise.all(calls);
    const diffs: string[] = [];
    const before = (await indexState(on)).answers!;
    for (const pass of ["at once", "8 s later"]) {
      if (pass !== "at once") await new Promise((r) => setTimeout(r, 8000));
      for (const question of QUESTIONS) {
        const a = matchesOf(await on.callTool({ name: "fs.search_by_time", arguments: question }));
        const b = matchesOf(await off.callTool({ name: "fs.search_by_time", arguments: question }));
        if (a !== b) {
          let k = 0;
          while (a[k] === b[k]) k++;
          diffs.push(
            `${pass}: ${JSON.stringify(question)}\n  index: …${
              a.slice(Math.max(0, k - 150), k + 150)
            }` +
              `\n  walk:  …${b.slice(Math.max(0, k - 150), k + 150)}`,
          );
        }
      }
    }
    const state = await indexState(on);
    const indexed = state.answers!.index - before.index;
    console.log(
      `run ${run + 1} (seed ${seed}, ${ops} operations): ${diffs.length} different; ` +
        `${indexed} of ${
          2 * QUESTIONS.length
        } compared answers from the index; index ${state.state}${
          state.reason ? ` (${state.reason})` : ""
        }`,
    );
    for (const d of diffs) console.log(d);
    if (diffs.length > 0) differing++;
    await on.close();
    await off.close();
    Deno.removeSync(root, { recursive: true });
  }
} finally {
  for (const hog of hogs) hog.kill("SIGKILL");
}
console.log(`${differing} of ${RUNS} runs differed.`);
