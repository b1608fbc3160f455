/**
 * `deno task bench`: builds reproducible trees, runs the server once per tree (warm),
 * drives it with the SDK client, and compares each query with fd and find on the same
 * tree. Prints a Markdown report; numbers go into docs/benchmarks-history.md.
 *
 * Options: --sizes 100k,1m (also 2m), --runs 5, --dir <where trees are kept>.
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
import { BENCH_NOW, ensureFd, ensureTree } from "./tree.ts";
import { ALLOW_ENV, ALLOW_WRITE, V8_FLAGS } from "../src/runtime_flags.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "100k,1m" },
    runs: { type: "string", default: "5" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
  },
});
const RUNS = Number(values.runs);
const DAY = 86_400_000;
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function timeCommand(cmd: string, args: string[]): Promise<number> {
  const t0 = performance.now();
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output();
  const ms = performance.now() - t0;
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed`);
  return ms;
}

async function medianOf(runs: number, f: () => Promise<number>): Promise<number> {
  await f(); // warm-up
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push(await f());
  return median(xs);
}

interface Row {
  query: string;
  ours: number;
  fd?: number;
  find?: number;
  note?: string;
}

async function benchTree(
  size: string,
  fd: string,
): Promise<{ rows: Row[]; rssMb: number; entries: number }> {
  const { root, entries } = ensureTree(values.dir, size);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--quiet", V8_FLAGS, "--allow-read", ALLOW_WRITE, ALLOW_ENV, MAIN],
    env: {
      ALLOW_ROOTS: root,
      MAX_FILES_SCANNED: "10000000",
      MAX_DIRECTORIES_SCANNED: "10000000",
      SCAN_TIMEOUT_MS: "600000",
    },
    stderr: "inherit",
  });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  await client.listTools();
  const call = async (args: Record<string, unknown>) => {
    const t0 = performance.now();
    const r = await client.callTool({ name: "fs.search_by_time", arguments: args });
    const ms = performance.now() - t0;
    if (r.isError) throw new Error(JSON.stringify(r.content));
    return {
      ms,
      out: r.structuredContent as { nextCursor: string | null; stats: { scannedFiles: number } },
    };
  };
  const ours = (args: Record<string, unknown>) => medianOf(RUNS, async () => (await call(args)).ms);
  const pageAll = async (args: Record<string, unknown>) => {
    const t0 = performance.now();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { out }: { out: { nextCursor: string | null } } = await call(
        cursor ? { ...args, cursor } : args,
      );
      cursor = out.nextCursor;
      pages++;
    } while (cursor !== null);
    return { ms: performance.now() - t0, pages };
  };
  const week = new Date(BENCH_NOW - 7 * DAY).toISOString();
  const yearAgo = new Date(BENCH_NOW - 400 * DAY).toISOString().slice(0, 10);
  const weekDay = week.slice(0, 10);
  const rows: Row[] = [];
  rows.push({
    query: "time_desc, limit 100, everything",
    ours: await ours({ timeField: "modified", limit: 100 }),
    fd: await medianOf(
      RUNS,
      () => timeCommand(fd, ["-t", "f", "-H", "-I", "--changed-after", yearAgo, ".", root]),
    ),
    find: await medianOf(
      RUNS,
      () => timeCommand("find", [root, "-type", "f", "-newermt", yearAgo]),
    ),
  });
  rows.push({
    query: "modified in the last 7 days",
    ours: await ours({ timeField: "modified", from: week }),
    fd: await medianOf(
      RUNS,
      () => timeCommand(fd, ["-t", "f", "-H", "-I", "--changed-after", weekDay, ".", root]),
    ),
    find: await medianOf(
      RUNS,
      () => timeCommand("find", [root, "-type", "f", "-newermt", weekDay]),
    ),
  });
  rows.push({
    query: "glob **/*.md",
    ours: await ours({ timeField: "modified", glob: "**/*.md" }),
    fd: await medianOf(RUNS, () => timeCommand(fd, ["-t", "f", "-H", "-I", "-e", "md", ".", root])),
    find: await medianOf(RUNS, () => timeCommand("find", [root, "-type", "f", "-name", "*.md"])),
  });
  rows.push({
    query: "created, limit 100, everything",
    ours: await ours({ timeField: "created", limit: 100 }),
    fd: rows[0]!.fd,
    find: rows[0]!.find,
    note: "fd and find have no birth-time filter: compared with the modified query",
  });
  if (entries <= 200_000) {
    const full = rows[0]!.ours;
    for (const sort of ["path_asc", "time_desc"]) {
      const xs: number[] = [];
      let pages = 0;
      for (let i = 0; i < Math.max(1, Math.min(RUNS, 3)); i++) {
        const r = await pageAll({ timeField: "modified", sort, limit: 1000 });
        xs.push(r.ms);
        pages = r.pages;
      }
      const ms = median(xs);
      rows.push({
        query: `${sort}, limit 1000, paged to the end`,
        ours: ms,
        note: `${pages} pages; ${(ms / full).toFixed(2)}x one full scan`,
      });
    }
  }
  // /proc needs --allow-all in Deno; cat reads it for us.
  const status = new TextDecoder().decode(
    (await new Deno.Command("cat", { args: [`/proc/${transport.pid}/status`], stdout: "piped" })
      .output()).stdout,
  );
  const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? "0");
  await client.close();
  return { rows, rssMb: Math.round(hwm / 1024), entries };
}

const fd = await ensureFd();
const cpu = os.cpus()[0]?.model ?? "unknown";
console.log(
  `Machine: ${os.cpus().length} cores (${cpu}), ${
    Math.round(os.totalmem() / 2 ** 30)
  } GiB; Deno ${Deno.version.deno}; ${fd}; medians of ${RUNS} warm runs.\n`,
);
for (const size of values.sizes.split(",")) {
  const { rows, rssMb, entries } = await benchTree(size, fd);
  console.log(`### ${size} tree (${entries.toLocaleString("en")} entries)\n`);
  console.log("| query | ours (ms) | fd (ms) | find (ms) | ours/fd | ours/find | note |");
  console.log("|---|---:|---:|---:|---:|---:|---|");
  const f = (x?: number) => (x === undefined ? "" : x.toFixed(0));
  for (const r of rows) {
    const ratio = (x?: number) => (x === undefined ? "" : (r.ours / x).toFixed(2));
    console.log(
      `| ${r.query} | ${f(r.ours)} | ${f(r.fd)} | ${f(r.find)} | ${ratio(r.fd)} | ${
        ratio(r.find)
      } | ${r.note ?? ""} |`,
    );
  }
  console.log(`\nServer peak RSS (VmHWM): ${rssMb} MB\n`);
}
