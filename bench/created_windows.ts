/**
 * `deno task bench:created`: questions of created times (birth times, contract §7), of files
 * and folders (`includeDirectories`), of folders only (`includeFiles: false`), and from the
 * top folder that holds the most files (`path`), on a ready index through MCP (issue 59: the
 * orders of birth times and of folders, read from a folder below the root), medians of
 * `--runs` calls each, beside
 * `fd`'s walk of the same tree (a modified window of every file: `fd` has no filter of birth
 * times) timed in the same run. The bench trees' files were all made when the tree was, so a
 * window of the last year holds every file and one from the middle of their birth times about
 * half. Servers started by `deno` itself with the start task's flags; every service of this user
 * stopped first and after.
 *
 * Options: --sizes 500k,home-2m-184k, --dir <where trees are kept>, --runs <default 7>,
 * --shared off|on (default off: the index in the server's own process), --main <a checkout's
 * main.ts, to time another commit with the same questions>.
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
import { ensureFd, ensureTree } from "./tree.ts";
import { stopAll } from "./services.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "500k,home-2m-184k" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
    runs: { type: "string", default: "7" },
    shared: { type: "string", default: "off" },
    main: { type: "string", default: fileURLToPath(new URL("../main.ts", import.meta.url)) },
  },
});
const RUNS = Number(values.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A server on `root` whose index is ready. */
async function readyServer(root: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, "--allow-net", "--allow-run", values.main, "serve", root],
    env: {
      INDEX: "on",
      SHARED_INDEX: values.shared,
      SHARED_INDEX_IDLE: "0",
      MAX_FILES_SCANNED: "10000000",
      MAX_DIRECTORIES_SCANNED: "10000000",
      SCAN_TIMEOUT_MS: "600000",
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-created", version: "0" });
  await client.connect(transport);
  for (;;) {
    const r = await client.callTool({ name: "fs.list_roots", arguments: {} });
    const roots = (r.structuredContent as { roots: { index?: { state: string } }[] }).roots;
    if (roots[0]?.index?.state === "ready") return client;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The median birth time of the root's own entries, as an ISO string. */
function middleBirth(root: string): string {
  const births = [...Deno.readDirSync(root)]
    .map((e) => Deno.statSync(path.join(root, e.name)).birthtime?.getTime() ?? 0)
    .sort((a, b) => a - b);
  return new Date(median(births)).toISOString();
}

/** The top folder of `root` that holds the most files (counted by `fd`). */
async function largestTop(root: string): Promise<string> {
  const bin = await ensureFd();
  let best = "", most = -1;
  for (const e of [...Deno.readDirSync(root)].filter((e) => e.isDirectory)) {
    const out = await new Deno.Command(bin, {
      args: ["-H", "-I", "-t", "f", ".", path.join(root, e.name)],
      stdout: "piped",
    }).output();
    const n = new TextDecoder().decode(out.stdout).split("\n").length - 1;
    if (n > most || (n === most && e.name < best)) [best, most] = [e.name, n];
  }
  return best;
}

/** `fd`'s walk of every file of `root` (median of 3, ms). */
async function fdWalk(root: string): Promise<number> {
  const bin = await ensureFd();
  const ms: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await new Deno.Command(bin, {
      args: ["-H", "-I", "-t", "f", "--changed-within", "3650d", ".", root],
      stdout: "null",
    }).output();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

console.log(`Machine: ${os.cpus().length} cores, Deno ${Deno.version.deno}; medians of ${RUNS}.`);
console.log(`Server: ${values.main}, SHARED_INDEX=${values.shared}.\n`);
for (const size of values.sizes.split(",")) {
  const { root, entries } = ensureTree(values.dir, size);
  await stopAll();
  const fdMs = await fdWalk(root);
  const client = await readyServer(root);
  const mid = middleBirth(root);
  const top = await largestTop(root);
  console.log(`### ${size} (${entries.toLocaleString("en")} entries)\n`);
  console.log("| question, newest-100 unless said | ms | x fd | totalMatches |");
  console.log("|---|---:|---:|---:|");
  console.log(`| fd, a walk of every file | ${fdMs.toFixed(0)} | 1.00 | |`);
  const created = { timeField: "created" };
  const both = { timeField: "modified", includeDirectories: true, from: "2026-03-01T00:00:00Z" };
  const questions: [string, Record<string, unknown>][] = [
    ["created within the last year (every file)", { ...created, within: "365d" }],
    ["created, no window", created],
    ["created from the middle birth time (about half)", { ...created, from: mid }],
    ["the same, oldest-100", { ...created, from: mid, sort: "time_asc" }],
    ["the same, `**/*.md`", { ...created, from: mid, glob: "**/*.md" }],
    ["files and folders modified since March (a quarter)", both],
    ["the same, oldest-100", { ...both, sort: "time_asc" }],
    ["files and folders, no window", { timeField: "modified", includeDirectories: true }],
    ["folders only, modified since March", { ...both, includeFiles: false }],
    ["the same, oldest-100", { ...both, includeFiles: false, sort: "time_asc" }],
    ["folders only, no window", {
      timeField: "modified",
      includeDirectories: true,
      includeFiles: false,
    }],
    [`files modified since March in \`${top}\` (\`path\`)`, {
      ...both,
      includeDirectories: false,
      path: top,
    }],
    ["the same, no window", { timeField: "modified", path: top }],
  ];
  for (const [what, args] of questions) {
    const ms: number[] = [];
    let total: number | undefined;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const r = await client.callTool({
        name: "fs.search_by_time",
        arguments: { limit: 100, ...args },
      });
      ms.push(performance.now() - t0);
      if (r.isError) throw new Error(JSON.stringify(r.content));
      total = (r.structuredContent as { stats: { totalMatches?: number } }).stats.totalMatches;
    }
    const m = median(ms);
    console.log(
      `| ${what} | ${m.toFixed(0)} | ${(m / fdMs).toFixed(3)} | ${total ?? "not given"} |`,
    );
  }
  console.log("");
  await client.close();
}
await stopAll();
