/**
 * One log line per call (contract §23a), read from the server's stderr over a session of
 * 20 calls (searches on two roots, changes on both, one refused): one line per call, each at
 * most 200 characters, each naming its root and who answered; the refusal's line names its
 * code and the argument at fault. `fs.list_roots`' text line names every root.
 */
import assert from "node:assert/strict";
import { sanitize } from "../helpers/sanitize.ts";
import { connect, textOf } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { MOST_CHARS } from "../../src/mcp/logging.ts";
import { until } from "../helpers/until.ts";

const PREFIX = "[file-time-search] info: ";

Deno.test({
  name: "call lines: one line per call, at most 200 characters, naming its root",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({
      "x/notes/a.md": { mtime: T0 },
      "y/docs/b.md": { mtime: T0 },
    });
    const [notes, docs] = ["x/notes", "y/docs"].map((p) => tree.abs(p));
    await using conn = await connect({ ALLOW_ROOTS: [notes, docs].join(","), INDEX: "off" });
    const before = conn.stderrTail().split("\n").length;
    const calls: [string, Record<string, unknown>][] = [];
    for (let i = 0; i < 8; i++) {
      calls.push(["fs.search_by_time", { timeField: "modified", root: i % 2 ? docs : notes }]);
    }
    for (let i = 0; i < 11; i++) {
      calls.push(["fs.changes_since", { since: "24h", root: i % 2 ? docs : notes }]);
    }
    calls.push(["fs.search_by_time", {
      timeField: "modified",
      root: notes,
      modifiedAfter: "2025-01-01",
    }]);
    for (const [name, args] of calls) await conn.client.callTool({ name, arguments: args });
    const logged = () => {
      const lines = conn.stderrTail().split("\n").slice(before - 1).filter((l) => l !== "");
      return lines.filter((l) => /^\[file-time-search\] \w+: (search|changes)\b/.test(l));
    };
    // The last line may be read after the answer (stderr and stdout are two pipes): waited for.
    await until(() => logged().length >= calls.length, "a line for every call").catch(() => {});
    const perCall = logged();
    assert.equal(perCall.length, calls.length, conn.stderrTail());
    for (const [i, line] of perCall.entries()) {
      const message = line.slice(PREFIX.length);
      assert.ok(message.length <= MOST_CHARS, `${message.length} characters: ${message}`);
      if (i < calls.length - 1) {
        const root = (calls[i]![1] as { root: string }).root;
        assert.ok(message.includes(root), `names its root: ${message}`);
        assert.match(message, / by (a walk|the index|the journal|a fresh instance)/, message);
      }
    }
    assert.match(perCall.at(-1)!, /search refused: InvalidArgument \('modifiedAfter'\)\./);
    // fs.list_roots' text line names every root too, the default first.
    const listed = await conn.client.callTool({ name: "fs.list_roots", arguments: {} });
    const line = textOf(listed as Parameters<typeof textOf>[0]);
    assert.match(line, /^2 searchable folders; the default is /);
    for (const root of [notes, docs]) assert.ok(line.includes(root!), line);
  },
});
