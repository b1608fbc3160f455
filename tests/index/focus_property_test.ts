/**
 * Windowed answers from the index skip what lies outside their window (contract §18;
 * focus.ts, subtree_times.ts) and still give a fresh walk's pages: on random trees whose
 * folders and files have times a few days apart, random windows (either time field, either
 * end open), orders, kinds (files, folders or both), start folders and small scan limits,
 * every query paged to the end
 * gives the same pages from the index as from a walk (the counts of what was examined
 * aside), or the same error; and the index read fewer folders than the walk for some.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { limitsEnv, TREE } from "../helpers/arbitraries.ts";
import { alike, type Engine, engine, pagesOrCode } from "../helpers/engine.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { NO_INDEX, readyIndex } from "../helpers/live_index.ts";
import { sanitize } from "../helpers/sanitize.ts";

const WINDOWED = fc.record({
  sort: fc.constantFrom("time_desc", "time_asc", "path_asc"),
  limit: fc.integer({ min: 1, max: 6 }),
  includeDirectories: fc.boolean(),
  /** False with folders: a folders-only question (without them, one that matches nothing). */
  includeFiles: fc.boolean(),
  created: fc.boolean(),
  /** Days after T0 (created times are today's: a window that ends before it holds none). */
  from: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  to: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  start: fc.option(fc.nat(), { nil: undefined }),
  maxFiles: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
  maxDirectories: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
});

/** The query of a counterexample kept below. */
const TIES_ASC = {
  sort: "time_asc" as const,
  limit: 1,
  includeDirectories: true,
  includeFiles: true,
  created: false,
  from: undefined,
  to: undefined,
  start: undefined,
  maxFiles: undefined,
  maxDirectories: undefined,
};

Deno.test({
  name: "live index: windowed answers skip what is outside the window and equal a walk's",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    let fewerFolders = 0;
    await fc.assert(
      fc.asyncProperty(
        TREE,
        fc.array(WINDOWED, { minLength: 4, maxLength: 8 }),
        async (spec, queries) => {
          await using tree = await makeTree(spec);
          const index = await readyIndex(tree.root);
          const clock = { now: () => T0 + 100 * DAY };
          const folders = Object.keys(spec).filter((p) => spec[p]!.kind === "dir");
          try {
            for (const q of queries) {
              const env = limitsEnv(q);
              const day = (d: number | undefined) =>
                d === undefined ? undefined : new Date(T0 + d * DAY).toISOString();
              const args = {
                timeField: q.created ? "created" : "modified",
                sort: q.sort,
                limit: q.limit,
                includeDirectories: q.includeDirectories,
                includeFiles: q.includeFiles,
                from: day(q.from),
                to: day(q.to),
                path: q.start === undefined || folders.length === 0
                  ? undefined
                  : folders[q.start % folders.length],
              };
              const indexed = engine(tree.root, { scanner: index, clock, env });
              const walked = engine(tree.root, { clock, env });
              assert.deepEqual(
                ...alike(await pagesOrCode(indexed, args), await pagesOrCode(walked, args)),
                JSON.stringify(args),
              );
              const first = async (e: Engine) => (await e.search(args).catch(() => null))?.stats;
              const [a, b] = [await first(indexed), await first(walked)];
              if (a && b && a.scannedDirectories < b.scannedDirectories) fewerFolders++;
            }
          } finally {
            index.close();
          }
        },
      ),
      {
        numRuns: 16,
        examples: [
          // Always one answer that skips a folder (random trees may give none: seen once in
          // CI): a window of the last two days leaves out the folder of old files.
          [
            {
              "old/a": { mtime: T0 },
              "old/b": { mtime: T0 },
              old: { kind: "dir", mtime: T0 },
              "new/c": { mtime: T0 + 3 * DAY },
              new: { kind: "dir", mtime: T0 + 3 * DAY },
            },
            [{ ...TIES_ASC, sort: "time_desc", limit: 2, includeDirectories: false, from: 2 }],
          ],
          // Found with the cut of a full time_asc page one millisecond too narrow: the folder
          // `a` ties with the page's last match `a/a` on time and comes first on its path.
          [{ "a/a": { mtime: T0 }, a: { kind: "dir", mtime: T0 } }, [TIES_ASC]],
          // Found in CI (seed 444624171): a time_asc page of files after a cursor, with a
          // folder limit, lost `a.b/a` and counted one match too few.
          [
            {
              a: { mtime: T0 },
              "B/a": { mtime: T0 },
              "a.b/a": { mtime: T0 + DAY },
              B: { kind: "dir", mtime: T0 },
              "a.b": { kind: "dir", mtime: T0 + DAY },
            },
            [{ ...TIES_ASC, includeDirectories: false, maxDirectories: 2 }],
          ],
          // Found here (seed 151830864) when the order first counted from a folder below the
          // root: files and folders from `a` counted 2, the walk 3 (it visits `a` itself).
          [
            {
              "a/a/a": { mtime: T0 + 2 * DAY },
              a: { kind: "dir", mtime: T0 },
              "a/a": { kind: "dir", mtime: T0 + DAY },
            },
            [{ ...TIES_ASC, sort: "time_desc", limit: 2, start: 0 }],
          ],
        ],
      },
    );
    assert.ok(fewerFolders > 0, "no answer skipped a folder: the test shows nothing");
  },
});
