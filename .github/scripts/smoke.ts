/**
 * Release smoke test: starts a compiled binary as an MCP server on a temp folder,
 * initializes over stdio, lists the tools and runs one search. Exits non-zero on any
 * failure. Usage: deno run --allow-all .github/scripts/smoke.ts <binary>
 */
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import path from "node:path";

const binary = path.resolve(Deno.args[0] ?? "");
const root = await Deno.makeTempDir({ prefix: "fts-smoke-" });
await Deno.writeTextFile(path.join(root, "hello.md"), "hello");
const transport = new StdioClientTransport({
  command: binary,
  env: { ALLOW_ROOTS: root },
  stderr: "inherit",
});
const client = new Client({ name: "release-smoke", version: "0" });
await client.connect(transport);
const { tools } = await client.listTools();
const names = tools.map((t: { name: string }) => t.name);
if (!names.includes("fs.search_by_time")) throw new Error(`tools: ${names}`);
const result = await client.callTool({
  name: "fs.search_by_time",
  arguments: { timeField: "modified" },
});
const matches = (result.structuredContent as { matches: { path: string }[] }).matches.map((m) =>
  m.path
);
if (result.isError || matches.join() !== "hello.md") throw new Error(JSON.stringify(result));
await client.close();
console.log(`smoke ok: ${binary} (${names.join(", ")})`);
