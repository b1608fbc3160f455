/**
 * Paging invariants (contract §10, §11), as properties over random trees on disk:
 * following nextCursor to the end yields exactly the matches of one unlimited call,
 * never a duplicate; with complete scans the pages concatenate in exact sort order.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { allPages, engine } from "../helpers/engine.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { limitsEnv, QUERY, QUERY_DEEP, SMALL_FOLDERS, TREE } from "../helpers/arbitraries.ts";

for (
  const [what, trees, queries, shares] of [
    ["", TREE, QUERY, 1],
    [", on trees of many small folders, split in two shares", SMALL_FOLDERS, QUERY_DEEP, 2],
  ] as const
) {
  Deno.test(
    `paging to the end returns exactly the matches of one unlimited call${what}`,
    () => pagesToTheEnd(trees, queries, shares),
  );
}

async function pagesToTheEnd(
  trees: typeof TREE,
  queries: typeof QUERY,
  shares: number,
) {
  await fc.assert(
    fc.asyncProperty(trees, queries, async (spec, q) => {
      await using tree = await makeTree(spec);
      const args: Record<string, unknown> = {
        timeField: "modified",
        sort: q.sort,
        includeDirectories: q.includeDirectories,
        ...(q.from === undefined ? {} : { from: new Date(T0 + q.from * DAY).toISOString() }),
      };
      const reference = await engine(tree.root).search({ ...args, limit: 1000 });
      assert.equal(reference.nextCursor, null);
      const env = limitsEnv(q);
      const paging = engine(tree.root, { env, shares });
      const pages = await allPages(paging, { ...args, limit: q.limit });
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
}
