/**
 * `deno task bench:repo`: the "what did I change this week?" question on a generated code
 * folder with a large `node_modules`, a `.git` and build output (contract §17), with and
 * without `respectIgnoreFiles`, beside fd on the same tree in the same run (fd respects
 * ignore files by default; `-HI` turns that off).
 *
 * Options: --runs 5, --dir <where the tree is kept>.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import path from "node:path";
import os from "node:os";
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ensureFd, prng } from "./tree.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "5" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
  },
});
const RUNS = Number(values.runs);
const DAY = 86_400_000;
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

/** Builds the repo-like tree; returns its entry count. Times count back from `now`. */
function buildRepo(root: string, now: number): number {
  const random = prng(7);
  let entries = 0;
  const file = (rel: string, ageMs: number) => {
    const abs = path.join(root, rel);
    Deno.mkdirSync(path.dirname(abs), { recursive: true });
    Deno.writeTextFileSync(abs, rel);
    const t = new Date(now - ageMs);
    Deno.utimeSync(abs, t, t);
    entries++;
  };
  // Your code: 2,000 files, a few changed this week.
  for (let d = 0; d < 40; d++) {
    for (let f = 0; f < 50; f++) {
      const recent = random() < 0.015;
      file(`src/m${d}/f${f}.ts`, recent ? random() * 6 * DAY : (8 + random() * 300) * DAY);
    }
  }
  // Dependencies installed two days ago: 400 packages, about 40,000 files.
  for (let p = 0; p < 400; p++) {
    file(`node_modules/pkg${p}/package.json`, 2 * DAY);
    for (let d = 0; d < 5; d++) {
      for (let f = 0; f < 20; f++) file(`node_modules/pkg${p}/lib${d}/f${f}.js`, 2 * DAY);
    }
  }
  // Git's objects and the build output: all recent.
  for (let o = 0; o < 256; o++) {
    for (let f = 0; f < 40; f++) file(`.git/objects/${o.toString(16)}/o${f}`, random() * 5 * DAY);
  }
  for (let f = 0; f < 500; f++) file(`dist/chunk${f}.js`, DAY);
  Deno.writeTextFileSync(path.join(root, ".gitignore"), "node_modules/\ndist/\n");
  Deno.writeTextFileSync(path.join(root, ".git/HEAD"), "ref: refs/heads/main\n");
  return entries + 2;
}

async function time(f: () => Promise<unknown>): Promise<number> {
  await f(); // warm-up
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await f();
    xs.push(performance.now() - t0);
  }
  return xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

const root = path.join(values.dir, "repo-seed7");
try {
  Deno.removeSync(root, { recursive: true });
} catch {
  // not there yet
}
const now = Date.now();
const entries = buildRepo(root, now);
const fd = await ensureFd();

const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: ["run", ...SERVER_FLAGS, MAIN, "serve", root],
  stderr: "inherit",
});
const client = new Client({ name: "bench-repo", version: "0" });
await client.connect(transport);
const week = new Date(now - 7 * DAY).toISOString();
const firstPaths = async (respectIgnoreFiles: boolean) => {
  const r = await client.callTool({
    name: "fs.search_by_time",
    arguments: { timeField: "modified", from: week, limit: 100, respectIgnoreFiles },
  });
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return (r.structuredContent as { matches: { path: string }[] }).matches.map((m) => m.path);
};
const fdRun = async (extra: string[]) => {
  const out = await new Deno.Command(fd, {
    args: ["-t", "f", "--changed-after", week.slice(0, 19).replace("T", " "), ...extra, ".", root],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return out;
};

const rows: [string, number, number, string][] = [];
const plain = await time(() => firstPaths(false));
const fdAll = await time(() => fdRun(["-H", "-I"]));
const sample = (await firstPaths(false)).slice(0, 3).join(", ");
rows.push(["changed this week, everything", plain, fdAll, `first: ${sample}`]);
const ignoring = await time(() => firstPaths(true));
const fdIgnoring = await time(() => fdRun([]));
const clean = (await firstPaths(true)).slice(0, 3).join(", ");
rows.push(["changed this week, respecting ignore files", ignoring, fdIgnoring, `first: ${clean}`]);
await client.close();

console.log(
  `Machine: ${os.cpus().length} cores (${
    os.cpus()[0]?.model ?? "?"
  }); Deno ${Deno.version.deno}; ${fd}; medians of ${RUNS} warm runs; ${
    entries.toLocaleString("en")
  } entries.\n`,
);
console.log("| query | ours (ms) | fd (ms) | ours/fd | note |");
console.log("|---|---:|---:|---:|---|");
for (const [query, ours, theirs, note] of rows) {
  console.log(
    `| ${query} | ${ours.toFixed(0)} | ${theirs.toFixed(0)} | ${
      (ours / theirs).toFixed(2)
    } | ${note} |`,
  );
}
