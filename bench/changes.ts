/**
 * The journal of `fs.changes_since` (contract §24, §24a) on a bench tree, through MCP, with
 * the start task's flags (its 128 MB heap): a server with its index ready, a clock, then
 * 1,000, 100,000 and 1,000,000 changes in all (100,000 files' own times set again, ten
 * rounds: an event each, the tree stays as made), made in steps the watcher keeps up with (a
 * barrier after each). After each count: a changes call since that first clock (the first
 * page, median of 5: every file changed since, as one net change each) and since a clock
 * taken before the last 1,000 changes (what a model asks most: what changed since my last
 * answer, with a long journal behind it), both beside fd's walk of the same tree in the same
 * run; the journal's steps, bytes and bytes per change, and the index worker's and the
 * process's memory. Part of `deno task bench:index --only changes` (index.ts).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";
import { processMemoryMb } from "./process_memory.ts";
import { someFiles } from "./walkers.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
/** Changes made between two barriers: well below what the kernel's queue holds. */
const STEP = 1_000;
/** Files changed again and again. */
const FILES = 100_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Journal {
  position: number;
  start: number | null;
  steps: number;
  memoryBytes: number;
}

/** Measures the journal on the tree at `root`; `fdMs`: fd's walk of it, same run. */
export async function benchChanges(root: string, fdMs: number, size: string): Promise<void> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, MAIN, "serve", root],
    env: { INDEX: "on", SCAN_TIMEOUT_MS: "600000" },
    stderr: "inherit",
  });
  const client = new Client({ name: "bench-changes", version: "0" });
  await client.connect(transport);
  const index = async () => {
    const r = await client.callTool({ name: "fs.list_roots", arguments: {} });
    return (r.structuredContent as {
      roots: { clock: string; index: { state: string; memoryBytes?: number; journal?: Journal } }[];
    }).roots[0]!;
  };
  while ((await index()).index.state !== "ready") await new Promise((r) => setTimeout(r, 200));
  const first = (await index()).clock;
  const changesCall = async (since: string, limit = 100) => {
    const t0 = performance.now();
    const r = await client.callTool({ name: "fs.changes_since", arguments: { since, limit } });
    const ms = performance.now() - t0;
    const out = r.structuredContent as {
      clock: string;
      freshInstance: boolean;
      stats: { totalChanges?: number };
    };
    if (r.isError || out.freshInstance) {
      throw new Error(`not from the journal: ${JSON.stringify(r).slice(0, 500)}`);
    }
    return { ms, total: out.stats.totalChanges ?? 0, clock: out.clock };
  };
  const files = someFiles(root, FILES);
  let made = 0;
  let recent = first;
  let barrier = first; // each barrier asks since the one before: it costs its own changes
  console.log(`### The journal on the ${size} tree, with the start task's flags\n`);
  console.log(
    "| changes | since the first clock (net changes, first page) | x fd | since a clock 1,000 changes back | x fd | journal steps | journal MB | bytes a change | index worker MB | server RSS MB |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const target of [1_000, 100_000, 1_000_000]) {
    for (; made < target; made++) {
      if (made === target - STEP) recent = (await index()).clock;
      const file = files[made % files.length]!;
      const { atime, mtime } = Deno.statSync(file);
      Deno.utimeSync(file, atime!, mtime!);
      if ((made + 1) % STEP === 0) barrier = (await changesCall(barrier, 1)).clock; // it keeps up
    }
    const whole: number[] = [];
    const last: number[] = [];
    let total = 0;
    let lastTotal = 0;
    for (let k = 0; k < 5; k++) {
      const a = await changesCall(first);
      whole.push(a.ms);
      total = a.total;
      const b = await changesCall(recent);
      last.push(b.ms);
      lastTotal = b.total;
    }
    const now = (await index()).index;
    const journal = now.journal!;
    const mb = (n: number | undefined) => ((n ?? 0) / 1e6).toFixed(1);
    const rss = transport.pid ? (await processMemoryMb(transport.pid)).rss : NaN;
    console.log(
      `| ${target.toLocaleString("en")} | ${median(whole).toFixed(0)} ms (${
        total.toLocaleString("en")
      }) | ${(median(whole) / fdMs).toFixed(3)} | ${median(last).toFixed(0)} ms (${
        lastTotal.toLocaleString("en")
      }) | ${(median(last) / fdMs).toFixed(3)} | ${journal.steps.toLocaleString("en")} | ${
        mb(journal.memoryBytes)
      } | ${(journal.memoryBytes / Math.max(1, journal.steps)).toFixed(1)} | ${
        mb(now.memoryBytes)
      } | ${rss} |`,
    );
  }
  console.log(`\nfd, one walk of the same tree (median): ${fdMs.toFixed(0)} ms.\n`);
  await client.close();
}
