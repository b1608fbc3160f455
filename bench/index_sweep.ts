/**
 * `deno task bench:index-sweep`: how long the live index's background check takes to go
 * round every folder and entry it holds (contract §18, "What no event reports"), on the
 * real server: started on a bench tree, ready, then asked a cheap question every 2 s (the
 * index worker reports with its answers), until three whole rounds have begun: the time
 * between the second's start and the third's is one round (the first runs while the
 * index is still being filled).
 *
 * Options: --sizes 500k,home-2m, --dir <where trees are kept>, --give-up <seconds>.
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
import { ensureTree } from "./tree.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "500k,home-2m" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
    "give-up": { type: "string", default: "2400" },
  },
});
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

for (const size of values.sizes.split(",")) {
  const { root, entries } = ensureTree(values.dir, size);
  const sub = [...Deno.readDirSync(root)].filter((e) => e.isDirectory).map((e) => e.name)
    .sort()[0]!;
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, MAIN, "serve", root],
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-sweep", version: "0" });
  await client.connect(transport);
  const index = async () =>
    ((await client.callTool({ name: "fs.list_roots", arguments: {} })).structuredContent as {
      roots: { index: { state: string; checkedWhole?: string } }[];
    }).roots[0]!.index;
  const startedAt = Date.now();
  while ((await index()).state !== "ready") await new Promise((r) => setTimeout(r, 500));
  const readyMs = Date.now() - startedAt;
  const began: number[] = [];
  const giveUp = Date.now() + Number(values["give-up"]) * 1000;
  while (began.length < 3 && Date.now() < giveUp) {
    await client.callTool({
      name: "fs.search_by_time",
      arguments: { timeField: "modified", limit: 1, path: sub },
    });
    const whole = (await index()).checkedWhole;
    if (whole !== undefined && !began.includes(Date.parse(whole))) began.push(Date.parse(whole));
    await new Promise((r) => setTimeout(r, 2000));
  }
  await client.close();
  const round = began.length === 2
    ? `${((began[1]! - began[0]!) / 1000).toFixed(0)} s`
    : "not seen";
  console.log(
    `${size} (${entries.toLocaleString("en")} entries): ready in ${
      (readyMs / 1000).toFixed(1)
    } s; a whole round of folders and entries: ${round}.`,
  );
}
