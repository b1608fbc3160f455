/**
 * The README's commands and client configuration, run as printed (with the placeholder
 * folders replaced by a temp tree and this checkout).
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { makeTree, T0 } from "./helpers/tree.ts";

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const README = Deno.readTextFileSync(`${REPO}/README.md`);

/** Every fenced block of the README with the given info string. */
function blocks(lang: string): string[] {
  return [...README.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) =>
    m[1]!
  );
}

async function searchThrough(transport: StdioClientTransport): Promise<string[]> {
  const client = new Client({ name: "readme-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t: { name: string }) => t.name), [
      "fs.search_by_time",
      "fs.list_roots",
    ]);
    const result = await client.callTool({
      name: "fs.search_by_time",
      arguments: { timeField: "modified", glob: "**/*.md" },
    });
    assert.equal(result.isError, false);
    return (result.structuredContent as { matches: { path: string }[] }).matches.map((m) => m.path);
  } finally {
    await client.close();
  }
}

Deno.test({
  name: "README client config works when pasted",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using tree = await makeTree({ "notes/a.md": { mtime: T0 }, "b.txt": { mtime: T0 } });
    const config = blocks("json").find((b) => b.includes("mcpServers"));
    assert.ok(config, "README has a client config");
    const pasted = config.replaceAll("/home/me/Documents", tree.root)
      .replaceAll("/home/me/file-time-search", REPO);
    const server = JSON.parse(pasted).mcpServers["file-time-search"];
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: server.env,
      stderr: "ignore",
    });
    assert.deepEqual(await searchThrough(transport), ["notes/a.md"]);
  },
});

Deno.test({
  name: "README quick-start start command serves on stdio",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using tree = await makeTree({ "a.md": { mtime: T0 } });
    const line = blocks("sh")[0]!.split("\n").find((l) => l.includes("task start"));
    assert.ok(line, "README has a start command");
    const transport = new StdioClientTransport({
      command: "sh",
      args: ["-c", line.replaceAll("$HOME/Documents", tree.root)],
      cwd: REPO,
      stderr: "ignore",
    });
    assert.deepEqual(await searchThrough(transport), ["a.md"]);
  },
});
