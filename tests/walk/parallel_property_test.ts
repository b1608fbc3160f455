/**
 * The parallel walk (scans split into shares, collector.ts) gives exactly the same pages
 * as the single-threaded one, on random trees, for every sort, page size and scan limit.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { allPages, engine } from "../helpers/engine.ts";
import { limitsEnv, QUERY, QUERY_DEEP, SMALL_FOLDERS, TREE } from "../helpers/arbitraries.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";

for (
  const [what, trees, queries] of [
    ["", TREE, QUERY],
    [", on trees of many small folders (split by folder)", SMALL_FOLDERS, QUERY_DEEP],
  ] as const
) {
  Deno.test(`parallel walk pages equal single-threaded pages${what}`, () =>
    samePages(trees, queries));
}

async function samePages(trees: typeof TREE, queries: typeof QUERY) {
  await fc.assert(
    fc.asyncProperty(trees, queries, fc.integer({ min: 2, max: 3 }), async (spec, q, shares) => {
      await using tree = await makeTree(spec);
      const args: Record<string, unknown> = {
        timeField: "modified",
        sort: q.sort,
        limit: q.limit,
        includeDirectories: q.includeDirectories,
        ...(q.from === undefined ? {} : { from: new Date(T0 + q.from * DAY).toISOString() }),
      };
      const env = limitsEnv(q);
      const view = (pages: Awaited<ReturnType<typeof allPages>>) =>
        pages.map((p) => ({
          matches: p.matches,
          nextCursor: p.nextCursor,
          truncated: p.stats.truncated,
        }));
      // One fixed clock for both: cursors name when their paging sequence began.
      const clock = { now: () => T0 };
      const single = await allPages(engine(tree.root, { env, clock }), args);
      const parallel = await allPages(engine(tree.root, { env, shares, clock }), args);
      assert.deepEqual(view(parallel), view(single));
    }),
    { numRuns: 150 },
  );
}
