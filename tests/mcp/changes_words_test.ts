/**
 * Words that lead somewhere (contract §23, §24a), through the SDK client and the real
 * server: every Fix of `fs.changes_since` names only its own arguments, with a value built
 * from the input where there is one (`since: "yesterday"` gives yesterday's local midnight,
 * a `~` or absolute `path` the root-relative path that exists); the tools are named in the
 * client's style everywhere a model reads them (`tools/list`, errors, notes), under both
 * `TOOL_NAMES`; a fresh instance pages like a search (its `limit`, a total, `CutForSize`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CHANGES_INPUT_SCHEMA } from "../../src/mcp/changes_tool.ts";
import { SEARCH_INPUT_SCHEMA } from "../../src/mcp/tool_schema.ts";
import { changesOf } from "../helpers/changes.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { connect, type Connection } from "../helpers/server.ts";
import { makeTree, T0, type TreeSpec } from "../helpers/tree.ts";

const CHANGES_ARGS = Object.keys(CHANGES_INPUT_SCHEMA.properties);
const SEARCH_ARGS = Object.keys(SEARCH_INPUT_SCHEMA.properties);

/** The refusal of a call: its code and Fix (it must be one). */
async function refused(conn: Connection, name: string, args: Record<string, unknown>) {
  const result = await conn.client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, JSON.stringify(result.content));
  const text = (result.content as { text: string }[])[0]!.text;
  const [code, message, fix] = text.split("\n").map((line) => line.replace(/^\w+: /, ""));
  return { code: code!, message: message!, fix: fix!, text };
}

/** The names a Fix quotes as arguments ('since', 'path'...). */
function namedArguments(fix: string): string[] {
  return [...fix.matchAll(/'([a-zA-Z]+)'/g)].map((m) => m[1]!)
    .filter((name) => SEARCH_ARGS.includes(name) || CHANGES_ARGS.includes(name));
}

Deno.test({
  name:
    "changes words: each Fix names fs.changes_since's own arguments, with values built from the input",
  ...sanitize,
  async fn() {
    const spec: TreeSpec = { "Documents/2025/a.md": { mtime: T0 }, "notes/b.md": { mtime: T0 } };
    await using tree = await makeTree(spec);
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off", TZ: "Asia/Seoul" });
    const cases: [Record<string, unknown>, RegExp][] = [
      // A calendar period: its start, in the server's zone, as RFC 3339 (no 'period' here).
      [
        { since: "yesterday" },
        /^Set 'since' to "\d{4}-\d\d-\d\dT00:00:00\+09:00" \(the start of yesterday in Asia\/Seoul/,
      ],
      [{ since: "this week" }, /^Set 'since' to "\d{4}-\d\d-\d\dT00:00:00\+09:00"/],
      [{ since: "last 3 days" }, /^Set 'since' to "3d"/],
      [{ since: 3 }, /"since": "3h"/],
      [{ since: "2025-12-15 09:00" }, /'2025-12-15T09:00:00Z'/],
      [{ since: "bananas" }, /a clock from an earlier answer/],
      // Names other tools use, as this tool takes them.
      [
        { from: "2025-12-15T00:00:00Z" },
        /Use 'since' for the time: "since": "2025-12-15T00:00:00Z"/,
      ],
      [{ since: "1h", within: "2h" }, /Use 'since' for the time: "since": "2h"/],
      [{ since: "1h", order: "desc" }, /^Send only the documented arguments/],
      [{ since: "1h", path: "~/Documents/2025" }, /set 'path' to "Documents\/2025", which exists/],
      [{ since: "1h", path: join(tree.root, "notes") }, /^Set 'path' to "notes", the same place/],
      [{ since: "1h", root: "*" }, /each root's own clock/],
    ];
    for (const [args, fix] of cases) {
      const got = await refused(conn, "fs.changes_since", args);
      assert.match(got.fix, fix, `${JSON.stringify(args)}: ${got.text}`);
      const others = namedArguments(got.fix).filter((n) => !CHANGES_ARGS.includes(n));
      assert.deepEqual(others, [], `${JSON.stringify(args)} names another tool's: ${got.fix}`);
      assert.ok(!got.text.includes(tree.root), "no root's absolute path in a message");
    }
    // The period's start is yesterday's local midnight, exactly.
    const yesterday = await refused(conn, "fs.changes_since", { since: "yesterday" });
    const start = /"([^"]+)"/.exec(yesterday.fix)![1]!;
    const zoned = Temporal.Now.zonedDateTimeISO("Asia/Seoul").startOfDay().subtract({ days: 1 });
    assert.equal(Date.parse(start), zoned.epochMilliseconds);
    // And it works as given.
    const again = await changesOf(conn, { since: start });
    assert.equal(again.freshInstance, true);
  },
});

Deno.test({
  name: "changes words: tools named in the client's style in tools/list, errors and notes",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.md": { mtime: T0 } });
    for (const style of ["dotted", "underscore"] as const) {
      await using conn = await connect({ ALLOW_ROOTS: tree.root, TOOL_NAMES: style });
      const listed = JSON.stringify(await conn.client.listTools());
      const other = style === "dotted"
        ? /fs_(list_roots|search_by_time|changes_since)/
        : /fs\.(list_roots|search_by_time|changes_since)/;
      assert.doesNotMatch(
        listed,
        other,
        `${style}: tools/list names a tool the client does not see`,
      );
      const name = style === "dotted" ? "fs.list_roots" : "fs_list_roots";
      assert.ok(listed.includes(name), `${style}: the descriptions name the list tool`);
      // An error's Fix and a result's notes, the same.
      const search = style === "dotted" ? "fs.search_by_time" : "fs_search_by_time";
      const bad = await refused(conn, search, { timeField: "modified", root: "/elsewhere" });
      assert.match(bad.fix, new RegExp(name.replace(".", "\\.")));
      assert.doesNotMatch(bad.text, other);
    }
  },
});

Deno.test({
  name: "changes words: a fresh instance pages like a search: its limit, a total, CutForSize",
  ...sanitize,
  async fn() {
    const spec: TreeSpec = {};
    for (let i = 0; i < 1500; i++) spec[`d${i % 10}/file-${i}.txt`] = {};
    await using tree = await makeTree(spec);
    // A walk in path order stops at its page: the total is not counted, and it says so.
    await using off = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const walked = await changesOf(off, { since: "1h", limit: 50 });
    assert.equal(walked.freshInstance, true);
    assert.equal(walked.changes.length, 50);
    assert.equal(walked.stats.totalChanges, undefined);
    assert.match(walked.summary, /^Found more than 50 files .*; the total was not counted\./);
    // A page that holds every match knows the total.
    const few = await changesOf(off, {
      since: "1h",
      limit: 1000,
      path: "d3",
      glob: "d3/file-1??.txt",
    });
    assert.equal(few.changes.length, 10);
    assert.equal(few.stats.totalChanges, 10);
    assert.match(few.summary, /^Found 10 files modified or created since /);
    const conn = off;
    // Past what fits: as many as fit (not a fixed share of the limit), and it says so.
    const big = await changesOf(conn, { since: "1h", limit: 1000 });
    assert.ok(big.changes.length > 150, `${big.changes.length} on the page`);
    assert.ok(big.notes?.some((n) => n.code === "CutForSize"), JSON.stringify(big.notes));
    const size = JSON.stringify(big).length;
    assert.ok(size <= 40_000, `${size} characters`);
    assert.ok(size > 30_000, `${size} characters: the page is not filled`);
    // Paging to the end gives each once.
    const seen = new Set(big.changes.map((c) => c.path));
    for (let page = big; page.nextCursor !== null;) {
      page = await changesOf(conn, { since: "1h", limit: 1000, cursor: page.nextCursor });
      for (const c of page.changes) {
        assert.ok(!seen.has(c.path), c.path);
        seen.add(c.path);
      }
    }
    assert.equal(seen.size, 1500);
  },
});
