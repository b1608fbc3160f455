/**
 * `deno task bench:real-trees`: the real trees of issue 48 indexed by the server as a
 * user starts it (default settings, `INDEX=on`): `/usr`, `/usr/share`, `/usr/share/doc`,
 * `/usr/lib`, `/etc`, `/var`, `/opt` and a home-like tree with links out at its top. Per
 * tree, one server: the watch plan (how many parts, how many folders left unwatched), the
 * time until `fs.list_roots` says `ready` (or why not), its entries, the runtime watches
 * and the index's memory as it reports them, and the server's resident memory then. What
 * an event costs with that many parts is `bench:watch-parts`'s.
 *
 * Options: --roots <comma list; `home-links` is the generated tree>, --dir <where trees are
 * kept>, --timeout <s a tree may take to be ready, default 600>.
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
import { generateHomeTree } from "./tree.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";
import { planWatch } from "../src/index/watch/watch_plan.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    roots: {
      type: "string",
      default: "/usr,/usr/share,/usr/share/doc,/usr/lib,/etc,/var,/opt,home-links",
    },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
    timeout: { type: "string", default: "600" },
  },
});
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

/** A home-like tree of 200,000 entries with links out at its top, as a home has them. */
function homeWithLinks(dir: string): string {
  const root = path.join(dir, "home-links-200k-seed42");
  const marker = `${root}.done`;
  try {
    Deno.statSync(marker);
    return root;
  } catch {
    // build it
  }
  try {
    Deno.removeSync(root, { recursive: true });
  } catch {
    // nothing to clean
  }
  generateHomeTree(root, 200_000, 42);
  const links: Record<string, string> = {
    ".local-share": "/usr/share",
    ".cache": "/var/cache",
    "bin": "/usr/bin",
    "settings": "/etc",
  };
  for (const [name, target] of Object.entries(links)) {
    Deno.symlinkSync(target, path.join(root, name));
  }
  Deno.writeTextFileSync(marker, "");
  return root;
}

interface IndexState {
  state: string;
  entries: number;
  watches?: number;
  memoryBytes?: number;
  reason?: string;
}

async function indexOf(client: Client): Promise<IndexState | undefined> {
  const roots = await client.callTool({ name: "fs.list_roots", arguments: {} });
  return (roots.structuredContent as { roots: { index?: IndexState }[] }).roots[0]!.index;
}

console.log(`Machine: ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}.`);
console.log(
  "| tree | entries (fd -HI) | parts | unwatched | ready after s | index entries | watches | index MB | RSS MB |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const name of values.roots.split(",")) {
  const root = name === "home-links" ? homeWithLinks(values.dir) : Deno.realPathSync(name);
  const planned = planWatch(root);
  const parts = "refused" in planned ? `refused: ${planned.refused}` : planned.plan.parts.length;
  const unwatched = "refused" in planned ? "" : planned.plan.unwatched.length;
  const counted = await new Deno.Command("fdfind", { args: ["-HI", ".", root], stdout: "piped" })
    .output();
  const onDisk = new TextDecoder().decode(counted.stdout).split("\n").length - 1;
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, MAIN, "serve", root],
    env: { INDEX: "on" },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-real-trees", version: "0" });
  const t0 = performance.now();
  await client.connect(transport);
  let index = await indexOf(client);
  const deadline = t0 + Number(values.timeout) * 1000;
  while (index?.state !== "ready" && index?.state !== "off" && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    index = await indexOf(client);
  }
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  // One call makes the index report its watches and memory (as of its last answer).
  await client.callTool({
    name: "fs.search_by_time",
    arguments: { timeField: "modified", limit: 10 },
  });
  index = await indexOf(client);
  const { rss } = await processMemoryMb(transport.pid!);
  const ready = index?.state === "ready" ? s : `${index?.state} (${index?.reason})`;
  const mb = index?.memoryBytes === undefined ? "" : (index.memoryBytes / 1e6).toFixed(1);
  const label = name === "home-links" ? "home-like, links out at its top" : name;
  console.log(
    `| ${label} | ${onDisk} | ${parts} | ${unwatched} | ${ready} | ${index?.entries} | ${
      index?.watches ?? ""
    } | ${mb} | ${rss} |`,
  );
  await client.close();
}
