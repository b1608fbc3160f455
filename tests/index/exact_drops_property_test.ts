/**
 * The matches a time-ordered page's cut leaves out, counted from the index alone
 * (src/index/focus/exact_drops.ts): with no budget to read anything again (so every count
 * an answer gives comes from memory), on random trees with version-control folders at any
 * depth, random windows, orders, start folders, depth limits, `includeVcs` and kinds (files,
 * folders, or both), every query
 * paged to the end gives the same pages as a walk, its `totalMatches` and the count of
 * matches left out inside version-control folders included wherever the index gave them;
 * and some answers of more than a page were counted by the index (not walked).
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { alike, engine, pagesOrCode } from "../helpers/engine.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { tree as randomTree } from "../helpers/arbitraries.ts";
import { NO_INDEX, readyIndex } from "../helpers/live_index.ts";
import { seamIndexWorkerUrl } from "../helpers/seam.ts";
import { sanitize } from "../helpers/sanitize.ts";

const HOUR = DAY / 24;

/**
 * Files of 1-4 segments, version-control folders among the names, files and folders at one
 * of the 96 hours of four days (so that a full page's cut leaves things out: few tie with
 * its last match).
 */
const TREE = randomTree(1, 4, 60, {
  names: fc.constantFrom("a", "b", "c", "a.b", ".git", ".hg", "é", "d"),
  times: { slots: 96, unit: HOUR },
  minPaths: 20,
});

const QUERY = fc.record({
  sort: fc.constantFrom("time_desc", "time_asc"),
  limit: fc.integer({ min: 1, max: 4 }),
  /** What is asked for: files, folders (a folders-only question) or both. */
  kinds: fc.constantFrom("files", "folders", "both"),
  includeVcs: fc.boolean(),
  from: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  to: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  start: fc.option(fc.nat(), { nil: undefined }),
  maxDepth: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
});

/** The query of the example kept below. */
const NESTED_VCS = {
  sort: "time_desc" as const,
  limit: 1,
  kinds: "files" as const,
  includeVcs: false,
  from: undefined,
  to: undefined,
  start: undefined,
  maxDepth: undefined,
};

Deno.test({
  name: "live index: what a page's cut leaves out is counted from memory as a walk counts it",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    let counted = 0;
    await fc.assert(
      fc.asyncProperty(TREE, fc.array(QUERY, { minLength: 4, maxLength: 8 }), async (spec, qs) => {
        await using tree = await makeTree(spec);
        // Nothing is read again to count: a count the index gives is from memory alone.
        const index = await readyIndex(tree.root, {
          indexWorkerUrl: seamIndexWorkerUrl({ countBudget: 0 }),
        });
        const clock = { now: () => T0 + 100 * DAY };
        const folders = Object.keys(spec).filter((p) => spec[p]!.kind === "dir");
        const day = (d: number | undefined) =>
          d === undefined ? undefined : new Date(T0 + d * DAY).toISOString();
        try {
          for (const q of qs) {
            const args = {
              timeField: "modified",
              sort: q.sort,
              limit: q.limit,
              includeDirectories: q.kinds !== "files",
              includeFiles: q.kinds !== "folders",
              includeVcs: q.includeVcs,
              from: day(q.from),
              to: day(q.to),
              maxDepth: q.maxDepth,
              path: q.start === undefined || folders.length === 0
                ? undefined
                : folders[q.start % folders.length],
            };
            const before = index.status()[0]!.answers.index;
            const indexed = await pagesOrCode(engine(tree.root, { scanner: index, clock }), args);
            const byIndex = index.status()[0]!.answers.index > before; // not walked
            const walked = await pagesOrCode(engine(tree.root, { clock }), args);
            assert.deepEqual(...alike(indexed, walked), JSON.stringify(args));
            const pages = Array.isArray(indexed) ? indexed : [];
            if (byIndex && pages.length > 1 && pages[0].stats.totalMatches !== undefined) counted++;
          }
        } finally {
          index.close();
        }
      }),
      {
        numRuns: 15,
        examples: [
          // A page full in `a`; `b/c` left out whole, a version-control folder below it.
          [{
            "a/x1": { mtime: T0 + 3 * DAY },
            "a/x2": { mtime: T0 + 2 * DAY },
            "b/y": { mtime: T0 },
            "b/c/.git/f": { mtime: T0 },
            "b/c/.git/g/h": { mtime: T0 + HOUR },
            "b/c/z": { mtime: T0 + HOUR },
          }, [NESTED_VCS, { ...NESTED_VCS, includeVcs: true }]],
          // The same with `maxDepth` 3: below `b/c`, `g`'s listing is past what the walk reads.
          [{
            "a/x1": { mtime: T0 + 3 * DAY },
            "a/x2": { mtime: T0 + 2 * DAY },
            "b/y": { mtime: T0 },
            "b/c/f": { mtime: T0 },
            "b/c/g/h": { mtime: T0 + HOUR },
          }, [{ ...NESTED_VCS, maxDepth: 3 }, { ...NESTED_VCS, maxDepth: 2 }]],
        ],
      },
    );
    assert.ok(
      counted > 0,
      "no answer of more than a page was counted by the index: the test shows nothing",
    );
  },
});
