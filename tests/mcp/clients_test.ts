/**
 * What every client needs (contract §15, §16, §20), end to end through the SDK client:
 * tool names without dots, pages cut to a size a client accepts, roots as arguments.
 */
import assert from "node:assert/strict";
import { connect, SERVER_ARGS, textOf } from "../helpers/server.ts";
import { runDeno } from "../helpers/spawn.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

const CLIENT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

interface Output {
  matches: { path: string }[];
  nextCursor: string | null;
  stats: { returned: number; totalMatches?: number };
}

Deno.test({
  name: "TOOL_NAMES: both styles are listed as asked and callable in both spellings",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.md": { mtime: T0 } });
    for (const style of ["dotted", "underscore"] as const) {
      await using conn = await connect({ ALLOW_ROOTS: tree.root, TOOL_NAMES: style });
      const { tools } = await conn.client.listTools();
      const names = tools.map((t: { name: string }) => t.name);
      assert.deepEqual(
        names,
        style === "dotted"
          ? ["fs.search_by_time", "fs.changes_since", "fs.list_roots"]
          : ["fs_search_by_time", "fs_changes_since", "fs_list_roots"],
      );
      if (style === "underscore") {
        for (const name of names) assert.match(name, CLIENT_NAME);
        for (const tool of tools) {
          assert.ok(!(tool.description ?? "").includes("fs."), `${tool.name}: ${tool.description}`);
        }
      }
      for (const name of ["fs.search_by_time", "fs_search_by_time"]) {
        const result = await conn.client.callTool({ name, arguments: { timeField: "modified" } });
        assert.equal(result.isError, false, name);
        assert.deepEqual((result.structuredContent as Output).matches.map((m) => m.path), ["a.md"]);
      }
      for (const name of ["fs.list_roots", "fs_list_roots"]) {
        const result = await conn.client.callTool({ name, arguments: {} });
        assert.equal(result.isError, false, name);
      }
      await assert.rejects(conn.client.callTool({ name: "fs-search_by_time", arguments: {} }));
    }
  },
});

Deno.test({
  name: "MAX_RESULT_CHARS: a page of long paths stays within it, and paging is exact",
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    const long = "a-rather-long-folder-name-that-repeats-".repeat(3);
    for (let i = 0; i < 300; i++) {
      spec[`${long}${i % 7}/${"file-with-a-long-name-".repeat(4)}${i}.txt`] = {
        mtime: T0 + i * 1000,
      };
    }
    await using tree = await makeTree(spec);
    await using whole = await connect({ ALLOW_ROOTS: tree.root, MAX_RESULT_CHARS: "100000000" });
    await using small = await connect({ ALLOW_ROOTS: tree.root, MAX_RESULT_CHARS: "8000" });
    for (const sort of ["time_desc", "time_asc", "path_asc"]) {
      const args = { timeField: "modified", sort, limit: 1000 };
      const all = await whole.search(args);
      const expected = (all.structuredContent as Output).matches.map((m) => m.path);
      assert.equal(expected.length, 300);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await small.search(cursor === null ? args : { ...args, cursor });
        const json = textOf(page, 1);
        assert.ok(json.length <= 8000, `${json.length} characters`);
        const out = page.structuredContent as Output;
        assert.ok(out.matches.length >= 1);
        if (out.nextCursor !== null) {
          assert.match(textOf(page), /The page was cut to \d+ files to keep the answer short/);
        }
        seen.push(...out.matches.map((m) => m.path));
        cursor = out.nextCursor;
        assert.ok(++pages < 200);
      } while (cursor !== null);
      assert.ok(pages > 5, `${pages} pages`);
      assert.deepEqual(seen, expected, sort);
    }
  },
});

Deno.test({
  name: "MAX_RESULT_CHARS: truncated pages are cut in path order and page on exactly",
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 120; i++) spec[`d${i % 5}/${"x".repeat(60)}${i}.txt`] = { mtime: T0 + i };
    await using tree = await makeTree(spec);
    await using conn = await connect({
      ALLOW_ROOTS: tree.root,
      MAX_RESULT_CHARS: "4000",
      MAX_FILES_SCANNED: "50",
    });
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const args: Record<string, unknown> = { timeField: "modified", limit: 1000 };
      const page = await conn.search(cursor === null ? args : { ...args, cursor });
      assert.ok(textOf(page, 1).length <= 4000);
      for (const m of (page.structuredContent as Output).matches) {
        assert.ok(!seen.has(m.path), `repeated ${m.path}`);
        seen.add(m.path);
      }
      cursor = (page.structuredContent as Output).nextCursor;
    } while (cursor !== null);
    assert.equal(seen.size, 120);
  },
});

Deno.test({
  name: "roots as arguments: serve DIR... allows exactly those folders",
  ...sanitize,
  async fn() {
    await using a = await makeTree({ "a.md": { mtime: T0 } });
    await using b = await makeTree({ "b.md": { mtime: T0 } });
    await using conn = await connect({}, undefined, ["serve", a.root, b.root]);
    const roots = await conn.client.callTool({ name: "fs.list_roots", arguments: {} });
    assert.deepEqual(
      (roots.structuredContent as { roots: { path: string }[] }).roots.map((r) => r.path),
      [a.root, b.root],
    );
    const inB = await conn.search({ timeField: "modified", root: b.root });
    assert.deepEqual((inB.structuredContent as Output).matches.map((m) => m.path), ["b.md"]);
    // `-- DIR...` (as `deno task start -- DIR...` passes them) works the same.
    await using dashed = await connect({}, undefined, ["--", a.root]);
    const inA = await dashed.search({ timeField: "modified" });
    assert.deepEqual((inA.structuredContent as Output).matches.map((m) => m.path), ["a.md"]);
  },
});

Deno.test("roots as arguments and ALLOW_ROOTS together stop the server with one line", async () => {
  await using a = await makeTree({ "a.md": { mtime: T0 } });
  const out = await runDeno([...SERVER_ARGS, "serve", a.root], { env: { ALLOW_ROOTS: a.root } });
  assert.equal(out.code, 2);
  assert.equal(out.stdout, "");
  const lines = out.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, lines.join("\n"));
  assert.match(lines[0]!, /both as arguments and in ALLOW_ROOTS: give them one way only/);
});
