/**
 * The journal of `fs.changes_since` (contract §24) on a bench tree, through MCP: a server
 * with its index ready, a clock, then 1,000 and then 100,000 file changes in all (each file's
 * own times set again: an event each, the tree stays as made), made in steps the watcher
 * keeps up with (a barrier after each), and after each count: a changes call since the
 * clock (the first page, and with `glob`, median of 5), the journal's steps and estimated
 * memory, and the index worker's memory before and after (as `fs.list_roots` says).
 * Part of `deno task bench:index --only changes` (index.ts).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";
import { someFiles } from "./walkers.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
/** Changes made between two barriers: well below what the kernel's queue holds. */
const STEP = 1_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Journal {
  position: number;
  start: number | null;
  steps: number;
  memoryBytes: number;
}

/**
 * Measures the journal on the tree at `root`; `fdMs`: fd's windowed walk, same run. The
 * journal may fill a share of its worker's heap (index_loop.ts `JOURNAL_HEAP_SHARE`):
 * 100,000 changes take more than the start task's heap allows, so the server runs with a
 * 1 GB old generation here, and `defaultHeap` measures what the start task's flags keep.
 */
export async function benchChanges(root: string, fdMs: number, size: string): Promise<void> {
  await measure(root, fdMs, size, "--v8-flags=--max-old-space-size=1024,--max-semi-space-size=4");
  await defaultHeap(root);
}

/** The start task's flags, with another `--v8-flags`. */
function flags(v8: string | null): string[] {
  return SERVER_FLAGS.map((f) => f.startsWith("--v8-flags=") && v8 !== null ? v8 : f);
}

async function serve(root: string, v8: string | null) {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...flags(v8), MAIN, "serve", root],
    env: { INDEX: "on", CHANGES_MAX_ENTRIES: "1000000", SCAN_TIMEOUT_MS: "600000" },
    stderr: "inherit",
  });
  const client = new Client({ name: "bench-changes", version: "0" });
  await client.connect(transport);
  const index = async () => {
    const r = await client.callTool({ name: "fs.list_roots", arguments: {} });
    return (r.structuredContent as {
      roots: { index: { state: string; memoryBytes?: number; journal?: Journal } }[];
    }).roots[0]!.index;
  };
  while ((await index()).state !== "ready") await new Promise((r) => setTimeout(r, 200));
  return { client, index };
}

/** 1,000 then 100,000 changes, and a changes call's cost and the journal's size after each. */
async function measure(root: string, fdMs: number, size: string, v8: string) {
  const { client, index } = await serve(root, v8);
  const search = await client.callTool({
    name: "fs.search_by_time",
    arguments: { timeField: "modified", limit: 1 },
  });
  const clock = (search.structuredContent as { clock: string }).clock;
  const before = await index();
  const changesCall = async (args: Record<string, unknown>) => {
    const t0 = performance.now();
    const r = await client.callTool({
      name: "fs.changes_since",
      arguments: { since: clock, ...args },
    });
    const ms = performance.now() - t0;
    const out = r.structuredContent as { freshInstance: boolean; stats: { totalChanges?: number } };
    if (r.isError || out.freshInstance) {
      throw new Error(`not from the journal: ${JSON.stringify(r)}`);
    }
    return { ms, total: out.stats.totalChanges ?? 0 };
  };
  const files = someFiles(root, 100_000);
  let made = 0;
  console.log(`### The journal on the ${size} tree\n`);
  console.log(
    '| changes | changes call, first page (median) | x fd | with `glob: "**/*.md"` | x fd | journal steps | estimated MB | index worker MB, before → after |',
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const target of [1_000, 100_000]) {
    for (; made < target; made++) {
      const { atime, mtime } = Deno.statSync(files[made]!);
      Deno.utimeSync(files[made]!, atime!, mtime!);
      if ((made + 1) % STEP === 0) await changesCall({ limit: 1 }); // a barrier: the journal catches up
    }
    const plain: number[] = [];
    const globbed: number[] = [];
    let total = 0;
    for (let k = 0; k < 5; k++) {
      const a = await changesCall({ limit: 100 });
      plain.push(a.ms);
      total = a.total;
      globbed.push((await changesCall({ limit: 100, glob: "**/*.md" })).ms);
    }
    const now = await index();
    const mb = (n: number | undefined) => ((n ?? 0) / 1e6).toFixed(1);
    console.log(
      `| ${total.toLocaleString("en")} | ${median(plain).toFixed(0)} ms | ${
        (median(plain) / fdMs).toFixed(3)
      } | ${median(globbed).toFixed(0)} ms | ${(median(globbed) / fdMs).toFixed(3)} | ${
        now.journal?.steps.toLocaleString("en")
      } | ${mb(now.journal?.memoryBytes)} | ${mb(before.memoryBytes)} → ${mb(now.memoryBytes)} |`,
    );
  }
  console.log(`\nfd, one windowed walk of the same tree (median): ${fdMs.toFixed(0)} ms.\n`);
  await client.close();
}

/** With the start task's heap: how many of 50,000 changes the journal keeps, and its bytes. */
async function defaultHeap(root: string) {
  const { client, index } = await serve(root, null);
  const files = someFiles(root, 50_000);
  for (let i = 0; i < files.length; i++) {
    const { atime, mtime } = Deno.statSync(files[i]!);
    Deno.utimeSync(files[i]!, atime!, mtime!);
    if ((i + 1) % STEP === 0) {
      await client.callTool({ name: "fs.changes_since", arguments: { since: "1m", limit: 1 } });
    }
  }
  const now = await index();
  console.log(
    `With the start task's flags, after ${
      files.length.toLocaleString("en")
    } changes: the journal keeps ${now.journal?.steps.toLocaleString("en")} (${
      ((now.journal?.memoryBytes ?? 0) / 1e6).toFixed(1)
    } MB estimated; index ${now.state}, its worker ${
      ((now.memoryBytes ?? 0) / 1e6).toFixed(1)
    } MB).\n`,
  );
  await client.close();
}
