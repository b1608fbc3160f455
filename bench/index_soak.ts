/**
 * `deno task bench:index-soak`: the server with default settings on the home-like tree of
 * 2,000,000 entries (bench/tree.ts), asked ten newest-100 questions over the whole root,
 * each with another window, one after another, as an assistant would. Per call: how long
 * it took, whether the page was cut at `SCAN_TIMEOUT_MS`, the root's index state from
 * `fs.list_roots`, and the server's resident memory (its threads are its workers). Exits
 * non-zero if the server dies (contract §18: no worker's heap may take it down).
 *
 * Options: --size home-2m, --calls 10, --dir <where trees are kept>, --main <main.ts>.
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
import { processMemoryMb } from "./process_memory.ts";
import { BENCH_NOW, ensureTree } from "./tree.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    size: { type: "string", default: "home-2m" },
    calls: { type: "string", default: "10" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
    main: { type: "string", default: fileURLToPath(new URL("../main.ts", import.meta.url)) },
  },
});
const DAY = 86_400_000;
const { root, entries } = ensureTree(values.dir, values.size);
const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: ["run", ...SERVER_FLAGS, values.main, "serve", root],
  env: {},
  stderr: "inherit",
});
const client = new Client({ name: "bench-index-soak", version: "0" });
await client.connect(transport);

console.log(
  `# ${values.size}: ${entries} entries, ${Number(values.calls)} calls, default settings`,
);
console.log("| call | ms | page | files scanned | index | entries | RSS MB | peak RSS MB |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (let k = 0; k < Number(values.calls); k++) {
  const to = BENCH_NOW - k * DAY;
  const t0 = performance.now();
  let line: string;
  try {
    const r = await client.callTool({
      name: "fs.search_by_time",
      arguments: {
        timeField: "modified",
        limit: 100,
        from: new Date(to - 30 * DAY).toISOString(),
        to: new Date(to).toISOString(),
      },
    });
    const ms = Math.round(performance.now() - t0);
    const { stats } = r.structuredContent as {
      stats: { truncated?: boolean; scannedFiles: number };
    };
    const text = (r.content as { text: string }[])[0]!.text;
    const page = r.isError
      ? "error"
      : /hung/.test(text)
      ? "hung"
      : stats.truncated
      ? "cut at the time limit"
      : "complete";
    const roots = await client.callTool({ name: "fs.list_roots", arguments: {} });
    const index = (roots.structuredContent as {
      roots: { index?: { state: string; entries: number; reason?: string } }[];
    }).roots[0]!.index;
    const { rss, peak } = await processMemoryMb(transport.pid!);
    line = `| ${k + 1} | ${ms} | ${page} | ${stats?.scannedFiles} | ${index?.state}${
      index?.reason ? ` (${index.reason})` : ""
    } | ${index?.entries} | ${rss} | ${peak} |`;
  } catch (err) {
    console.log(
      `| ${k + 1} | ${Math.round(performance.now() - t0)} | the server died: ${err} | | | | | |`,
    );
    Deno.exit(1);
  }
  console.log(line);
}
await client.close();
