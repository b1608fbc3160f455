/**
 * Paging invariants (DECISIONS §10, §11), as properties over random trees on disk:
 * following nextCursor to the end yields exactly the matches of one unlimited call,
 * never a duplicate; with complete scans the pages concatenate in exact sort order.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { allPages, engine } from "../helpers/engine.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";

/** Names chosen so that '-', '.', ' ' and upper case sort around '/' and each other. */
const NAME = fc.constantFrom("a", "b", "a-b", "a.b", "B", "é", "a b", "_");

/** A random tree: a list of file paths (1-3 segments) with one of four mtimes. */
const TREE = fc.uniqueArray(
  fc.record({
    segments: fc.array(NAME, { minLength: 1, maxLength: 3 }),
    day: fc.integer({ min: 0, max: 3 }),
  }),
  { minLength: 0, maxLength: 25, selector: (e) => e.segments.join("/") },
).map((entries) => {
  const spec: TreeSpec = {};
  const dirs = new Set<string>();
  for (const { segments } of entries) {
    for (let i = 1; i < segments.length; i++) dirs.add(segments.slice(0, i).join("/"));
  }
  for (const { segments, day } of entries) {
    const p = segments.join("/");
    if (!dirs.has(p)) spec[p] = { mtime: T0 + day * DAY };
  }
  let i = 0;
  for (const d of dirs) spec[d] = { kind: "dir", mtime: T0 + (i++ % 4) * DAY };
  return spec;
});

const QUERY = fc.record({
  sort: fc.constantFrom("time_desc", "time_asc", "path_asc"),
  limit: fc.integer({ min: 1, max: 6 }),
  includeDirectories: fc.boolean(),
  maxFiles: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
  maxDirectories: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  from: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
});

Deno.test("paging to the end returns exactly the matches of one unlimited call", async () => {
  await fc.assert(
    fc.asyncProperty(TREE, QUERY, async (spec, q) => {
      await using tree = await makeTree(spec);
      const args: Record<string, unknown> = {
        timeField: "modified",
        sort: q.sort,
        includeDirectories: q.includeDirectories,
        ...(q.from === undefined ? {} : { from: new Date(T0 + q.from * DAY).toISOString() }),
      };
      const reference = await engine(tree.root).search({ ...args, limit: 1000 });
      assert.equal(reference.nextCursor, null);
      const env: Record<string, string> = {};
      if (q.maxFiles !== undefined) env.MAX_FILES_SCANNED = String(q.maxFiles);
      if (q.maxDirectories !== undefined) env.MAX_DIRECTORIES_SCANNED = String(q.maxDirectories);
      const pages = await allPages(engine(tree.root, { env }), { ...args, limit: q.limit });
      const got = pages.flatMap((p) => p.matches.map((m) => m.path));
      assert.equal(new Set(got).size, got.length, `duplicates in ${JSON.stringify(got)}`);
      const expected = reference.matches.map((m) => m.path);
      assert.deepEqual([...got].sort(), [...expected].sort());
      for (const page of pages) assert.ok(page.matches.length <= q.limit);
      if (pages.every((p) => !p.stats.truncated)) assert.deepEqual(got, expected);
      if (q.sort === "path_asc") assert.deepEqual(got, expected);
    }),
    { numRuns: 150 },
  );
});
