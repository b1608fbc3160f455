/**
 * Plain walks (`INDEX=off`) of one or more checkouts of the server, beside fd and the Deno
 * floor, in one run, in turns: `deno run -A bench/walk_compare.ts --size 500k /path/to/a/main.ts
 * /path/to/b/main.ts`. Each call is a windowed newest-100 (another week each), the call
 * that a walk answers at full cost.
 *
 * @module
 */
import { parseArgs } from "node:util";
import path from "node:path";
import os from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";
import { ensureTree } from "./tree.ts";
import { fd, floor, window } from "./walkers.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    size: { type: "string", default: "500k" },
    runs: { type: "string", default: "3" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
  },
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const { root } = ensureTree(values.dir, values.size);
const mains = positionals.length > 0
  ? positionals
  : [new URL("../main.ts", import.meta.url).pathname];

async function offServer(main: string) {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, main, "serve", root],
    env: { INDEX: "off", MAX_FILES_SCANNED: "10000000", SCAN_TIMEOUT_MS: "600000" },
    stderr: "inherit",
  });
  const client = new Client({ name: "walk-compare", version: "0" });
  await client.connect(transport);
  return {
    call: async (k: number) => {
      const t0 = performance.now();
      const r = await client.callTool({
        name: "fs.search_by_time",
        arguments: { timeField: "modified", limit: 100, ...window(k) },
      });
      if (r.isError) throw new Error(JSON.stringify(r.content));
      return performance.now() - t0;
    },
    close: () => client.close(),
  };
}

const servers = await Promise.all(mains.map(offServer));
await fd(root, 0);
for (const s of servers) await s.call(0); // workers started, code compiled
const times: Record<string, number[]> = { fd: [], floor: [] };
for (let k = 1; k <= Number(values.runs); k++) {
  times.fd!.push(await fd(root, k));
  times.floor!.push(await floor(root));
  for (const [i, s] of servers.entries()) (times[mains[i]!] ??= []).push(await s.call(k));
}
for (const s of servers) await s.close();
const floorMs = median(times.floor!);
const fdMs = median(times.fd!);
for (const [what, xs] of Object.entries(times)) {
  const ms = median(xs);
  console.log(
    `${what}: ${ms.toFixed(0)} ms, ${(ms / fdMs).toFixed(2)}x fd, ${
      (ms / floorMs).toFixed(2)
    }x floor`,
  );
}
