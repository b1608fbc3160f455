/**
 * Fixes that lead to a working call (contract §23a), through the SDK client and the real
 * server, in both tool-name styles: each wrong argument a model is likely to send (the
 * answer's `clock` given back as `clock`, `modifiedAfter`, `newerThan`, `olderThan`,
 * `createdAfter`, `timeField` or `sort` sent to `fs.changes_since`) is refused with a Fix
 * that, applied as written (the wrong argument left out, each `"name": value` of the Fix
 * put in), gives a successful call.
 */
import assert from "node:assert/strict";
import { sanitize } from "../helpers/sanitize.ts";
import { connect, textOf } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";

/** The Fix of a refused call's text. */
function fixOf(text: string): string {
  const fix = /^Fix: (.*)$/m.exec(text)?.[1];
  assert.ok(fix, `a Fix: ${text}`);
  return fix;
}

/** `args` with `wrong` left out and every `"name": value` the Fix gives put in. */
function applied(args: Record<string, unknown>, wrong: string, fix: string) {
  const out: Record<string, unknown> = { ...args };
  delete out[wrong];
  for (const [, name, value] of fix.matchAll(/"(\w+)": ("[^"]*"|-?\d+(?:\.\d+)?|true|false)/g)) {
    out[name!] = JSON.parse(value!);
  }
  return out;
}

for (const style of ["dotted", "underscore"] as const) {
  Deno.test({
    name: `fixes applied (${style} names): each wrong argument's Fix, applied, gives an answer`,
    ...sanitize,
    async fn() {
      await using tree = await makeTree({ "a.md": { mtime: T0 }, "b/c.txt": { mtime: T0 + 1 } });
      await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off", TOOL_NAMES: style });
      const name = (dotted: string) => style === "dotted" ? dotted : dotted.replace(".", "_");
      const call = (tool: string, args: Record<string, unknown>) =>
        conn.client.callTool({ name: name(tool), arguments: args });
      const first = await call("fs.changes_since", { since: "24h" });
      const clock = (first.structuredContent as { clock: string }).clock;
      const cases: [string, Record<string, unknown>, string, RegExp][] = [
        ["fs.changes_since", { clock }, "clock", /"since": "fts/],
        ["fs.changes_since", { since: clock, timeField: "modified" }, "timeField", /leave/],
        ["fs.changes_since", { since: clock, sort: "time_desc" }, "sort", /leave/],
        ["fs.search_by_time", { modifiedAfter: "2025-01-01" }, "modifiedAfter", /"from"/],
        ["fs.search_by_time", { newerThan: "3d" }, "newerThan", /"within": "3d"/],
        ["fs.search_by_time", { createdAfter: "2025-01-01T00:00:00Z" }, "createdAfter", /created/],
        ["fs.search_by_time", { olderThan: "2026-01-01" }, "olderThan", /"to"/],
        ["fs.search_by_time", { after: "2025-06-01" }, "after", /"from"/],
        ["fs.search_by_time", { timeField: "modified", clock }, "clock", /changes_since/],
      ];
      for (const [tool, args, wrong, words] of cases) {
        const refused = await call(tool, args);
        assert.equal(refused.isError, true, `${tool} ${JSON.stringify(args)}`);
        const text = textOf(refused);
        const fix = fixOf(text);
        assert.match(fix, words, `${tool} ${JSON.stringify(args)}`);
        // The other tool is named in this style only.
        if (style === "underscore") assert.doesNotMatch(text, /fs\.(search_by_time|changes_since)/);
        const again = applied(args, wrong, fix);
        if (tool === "fs.search_by_time" && again.timeField === undefined) {
          again.timeField = "modified";
        }
        const answer = await call(tool, again);
        assert.equal(answer.isError, false, `${JSON.stringify(again)}: ${textOf(answer)}`);
      }
    },
  });
}

Deno.test({
  name: "fixes applied: 'root' by its last name or ~/ form, ambiguous names listed, subfolders",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({
      "x/notes/a.md": { mtime: T0 },
      "y/docs/sub/b.md": { mtime: T0 + 1 },
      "z/notes/c.md": { mtime: T0 + 2 },
    });
    const [notes, docs, other] = ["x/notes", "y/docs", "z/notes"].map((p) => tree.abs(p));
    await using two = await connect({ ALLOW_ROOTS: [notes, docs].join(","), INDEX: "off" });
    const search = (args: Record<string, unknown>) =>
      two.search({ timeField: "modified", ...args });
    // One root ends in "notes": it is the one searched, and the answer says so.
    for (const root of ["notes", "~/notes", "x/notes"]) {
      const answer = await search({ root });
      assert.equal(answer.isError, false, `${root}: ${textOf(answer)}`);
      const out = answer.structuredContent as { root: string; matches: { path: string }[] };
      assert.equal(out.root, notes, root);
      assert.deepEqual(out.matches.map((m) => m.path), ["a.md"]);
    }
    // A folder inside an allowed root, given as 'root' or as an absolute 'path': the Fix
    // names that root and the subfolder, and applied it answers.
    for (
      const [args, wrong] of [[{ root: `${docs}/sub` }, "root"], [
        { path: `${docs}/sub` },
        "path",
      ]] as const
    ) {
      const refused = await search(args);
      assert.equal(refused.isError, true);
      const fix = fixOf(textOf(refused));
      assert.ok(fix.includes(JSON.stringify(docs)), fix);
      const answer = await search(applied(args, wrong, fix));
      assert.equal(answer.isError, false, textOf(answer));
      const out = answer.structuredContent as { matches: { path: string }[] };
      assert.deepEqual(out.matches.map((m) => m.path), ["sub/b.md"]);
    }
    // Two roots end in "notes": refused, both listed.
    await using three = await connect({
      ALLOW_ROOTS: [notes, docs, other].join(","),
      INDEX: "off",
    });
    const refused = await three.search({ timeField: "modified", root: "notes" });
    assert.equal(refused.isError, true);
    const text = textOf(refused);
    assert.match(text, /RootNotAllowed/);
    for (const root of [notes, docs, other]) assert.ok(text.includes(JSON.stringify(root)), text);
  },
});
