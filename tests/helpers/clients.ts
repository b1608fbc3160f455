/**
 * Running the server as a client configuration says: a stand-in for the compiled binary
 * (which only the release workflow can build), and one search through the SDK client.
 *
 * @module
 */
import assert from "node:assert/strict";
import { until } from "./until.ts";
import path from "node:path";
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SERVER_FLAGS } from "../../src/runtime_flags.ts";
import { exportLines } from "./spawn.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");

/** A stand-in binary in a temp folder of its own, removed when disposed. */
export interface StandIn {
  file: string;
  dir: string;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A stand-in for the compiled binary: the flags the compile script gives it, and Deno's
 * cache (with the TLS and proxy settings) passed on, which the binary would not need;
 * `env` is set for it too. The index services it starts (contract §28) end with their last
 * session (`SHARED_INDEX_IDLE=0`) unless `env` says otherwise: no test leaves one behind.
 */
export async function standInBinary(env: Record<string, string> = {}): Promise<StandIn> {
  const dir = await Deno.makeTempDir({ prefix: "fts-bin-" });
  const file = path.join(dir, "file-time-search");
  await Deno.writeTextFile(
    file,
    `#!/bin/sh\n${exportLines({ SHARED_INDEX_IDLE: "0", ...env })}exec "${Deno.execPath()}" run ${
      SERVER_FLAGS.join(" ")
    } "${REPO}/main.ts" "$@"\n`,
  );
  await Deno.chmod(file, 0o755);
  return { file, dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

/** Waits until the first root's index is ready (not off), then asks it once. */
async function indexAnswers(client: Client, names: string[]): Promise<void> {
  const search = names[0];
  const listRoots = names.at(-1);
  type Index = { state: string; reason?: string; answers?: { index: number } };
  const index = async () =>
    ((await client.callTool({ name: listRoots!, arguments: {} })).structuredContent as {
      roots: { index: Index }[];
    }).roots[0]!.index;
  await until(async () => ["ready", "off"].includes((await index()).state), "the index");
  const ready = await index();
  assert.equal(ready.state, "ready", JSON.stringify(ready));
  // The first search may have been answered by the index already (it gets ready in the
  // background, sooner or later on a busy machine): this one must be.
  const before = ready.answers?.index ?? 0;
  await client.callTool({ name: search!, arguments: { timeField: "modified" } });
  assert.equal((await index()).answers?.index, before + 1, "the index answered");
}

/**
 * Connects through `transport`, checks the tool names (dotted, or every one a client
 * accepts when the server was told `TOOL_NAMES=underscore`), and returns the paths of a
 * search for `**\/*.md`; and, where roots are indexed (not Windows), that the root's index
 * gets ready and answers, so that a configuration's permissions are whole (contract §13).
 */
export async function searchThrough(transport: StdioClientTransport): Promise<string[]> {
  const client = new Client({ name: "config-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t: { name: string }) => t.name);
    const underscore = names.includes("fs_search_by_time");
    assert.deepEqual(
      names,
      underscore
        ? ["fs_search_by_time", "fs_changes_since", "fs_list_roots"]
        : ["fs.search_by_time", "fs.changes_since", "fs.list_roots"],
    );
    if (underscore) { for (const name of names) assert.match(name, /^[a-zA-Z0-9_-]{1,64}$/); }
    const result = await client.callTool({
      name: names[0]!,
      arguments: { timeField: "modified", glob: "**/*.md" },
    });
    assert.equal(result.isError, false);
    const paths = (result.structuredContent as { matches: { path: string }[] }).matches
      .map((m) => m.path);
    if (Deno.build.os !== "windows") await indexAnswers(client, names);
    return paths;
  } finally {
    await client.close();
  }
}
