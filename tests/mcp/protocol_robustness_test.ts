/**
 * Protocol robustness, against the real process on raw stdio: garbage, a truncated
 * message, a line over 10 MiB, unknown methods, 100 concurrent calls, and stdin closing
 * mid-scan. The server answers or skips each, keeps serving, writes only JSON-RPC to
 * stdout, and exits when its input ends.
 */
import assert from "node:assert/strict";
import { rawSession } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

const INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
};
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
const call = (id: number, args: Record<string, unknown> = { timeField: "modified" }) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "fs.search_by_time", arguments: args },
});

/** Runs a raw session and checks that stdout holds JSON-RPC messages only. */
async function session(root: string, chunks: string[]) {
  const { code, stdout: text } = await rawSession(root, chunks);
  assert.ok(text === "" || text.endsWith("\n"), "stdout ends with a whole line");
  const lines = text.split("\n").filter((l) => l !== "");
  // stdout carries protocol messages only: every line is one JSON-RPC message.
  const messages = lines.map((l) => JSON.parse(l) as Record<string, unknown> & { id?: unknown });
  for (const m of messages) assert.equal(m.jsonrpc, "2.0", JSON.stringify(m).slice(0, 200));
  return { code, messages, byId: new Map(messages.map((m) => [m.id, m])) };
}

const line = (value: unknown) => JSON.stringify(value) + "\n";

Deno.test({
  name: "protocol: garbage, truncated and oversized lines are answered, and serving goes on",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    const huge = JSON.stringify(
      call(2, { timeField: "modified", glob: "x".repeat(11 * 1024 * 1024) }),
    );
    const { code, messages, byId } = await session(tree.root, [
      line(INIT),
      line(INITIALIZED),
      "this is not json\n",
      '{"jsonrpc":"2.0","id":1,"method":"tools/ca\n',
      huge.slice(0, 5_000_000),
      huge.slice(5_000_000) + "\n",
      line({ jsonrpc: "2.0", id: 3, method: "no/such/method" }),
      line({ jsonrpc: "2.0", id: 4, method: "ping" }),
      line(call(5)),
    ]);
    assert.equal(code, 0);
    const errors = messages.filter((m) => m.id === null).map((m) =>
      (m.error as { code: number }).code
    );
    assert.deepEqual(errors, [-32700, -32700, -32600]);
    assert.equal((byId.get(3)?.error as { code: number }).code, -32601);
    assert.deepEqual(byId.get(4)?.result, {});
    assert.equal((byId.get(5)?.result as { isError: boolean }).isError, false);
    assert.equal(byId.has(2), false, "the oversized request was skipped, not run");
  },
});

Deno.test({
  name: "protocol: 100 concurrent calls are all answered",
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 50; i++) spec[`d${i % 5}/f${i}.txt`] = { mtime: T0 + i };
    await using tree = await makeTree(spec);
    const ids = Array.from({ length: 100 }, (_, i) => 100 + i);
    const { code, byId } = await session(tree.root, [
      line(INIT),
      line(INITIALIZED),
      ids.map((id) => line(call(id, { timeField: "modified", limit: 1 + (id % 7) }))).join(""),
    ]);
    assert.equal(code, 0);
    for (const id of ids) {
      const result = byId.get(id)?.result as {
        isError: boolean;
        structuredContent: { matches: unknown[] };
      };
      assert.equal(result?.isError, false, `call ${id}`);
      assert.equal(result.structuredContent.matches.length, 1 + (id % 7));
    }
  },
});

Deno.test({
  name: "protocol: stdin closing mid-scan answers the scan and exits",
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 2000; i++) spec[`d${i % 40}/f${i}.txt`] = { mtime: T0 + i };
    await using tree = await makeTree(spec);
    // The input ends right after the call: the scan is still running when EOF arrives.
    const { code, byId } = await session(tree.root, [
      line(INIT) + line(INITIALIZED) + line(call(1)),
    ]);
    assert.equal(code, 0);
    const result = byId.get(1)?.result as {
      structuredContent: { stats: { scannedFiles: number } };
    };
    assert.equal(result.structuredContent.stats.scannedFiles, 2000);
  },
});
