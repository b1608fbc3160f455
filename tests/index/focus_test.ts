/**
 * Indexed answers cost what the answer costs (contract §18): a question with a time window
 * examines only the entries whose time may fall inside it, and reads no folder whose times,
 * its own and all below it, lie outside; it gives the page a walk gives, and is made again
 * unfocused when an unfocused walk could have been cut elsewhere (by files or by listings).
 */
import assert from "node:assert/strict";
import { alike, allPages, engine } from "../helpers/engine.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { NO_INDEX, readyIndex } from "../helpers/live_index.ts";
import { seamIndexWorkerUrl } from "../helpers/seam.ts";
import { sanitize } from "../helpers/sanitize.ts";

Deno.test({
  name: "live index: a windowed answer examines only what may be in the window, and equals a walk",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    const spec: TreeSpec = {};
    for (let i = 0; i < 120; i++) spec[`old/d${i % 4}/f${i}.txt`] = { mtime: T0 + (i % 7) * 1000 };
    for (let i = 0; i < 3; i++) spec[`new/f${i}.txt`] = { mtime: T0 + 30 * DAY + i };
    for (let d = 0; d < 4; d++) spec[`old/d${d}`] = { kind: "dir", mtime: T0 - DAY };
    spec["old"] = { kind: "dir", mtime: T0 - DAY };
    await using tree = await makeTree(spec);
    const index = await readyIndex(tree.root);
    try {
      const recent = {
        timeField: "modified",
        from: new Date(T0 + DAY).toISOString(),
        to: new Date(T0 + 60 * DAY).toISOString(),
        limit: 2,
      };
      const clock = { now: () => T0 + 100 * DAY }; // one paging sequence's 'now' for both
      const envs: Record<string, string>[] = [
        {},
        { MAX_FILES_SCANNED: "50" },
        { MAX_FILES_SCANNED: "2" },
        { MAX_DIRECTORIES_SCANNED: "3" },
      ];
      for (const env of envs) {
        const indexed = await allPages(engine(tree.root, { scanner: index, env, clock }), recent);
        const walked = await allPages(engine(tree.root, { env, clock }), recent);
        assert.deepEqual(...alike(indexed, walked), JSON.stringify(env));
        if (Object.keys(env).length === 0) {
          // The 120 old files were not examined, nor the old folders read; the walk did both.
          assert.equal(walked[0]!.stats.scannedFiles, 123);
          assert.equal(indexed[0]!.stats.scannedFiles, 3);
          assert.equal(walked[0]!.stats.scannedDirectories, 7);
          assert.equal(indexed[0]!.stats.scannedDirectories, 2);
        }
      }
    } finally {
      index.close();
    }
  },
});

Deno.test({
  name:
    "live index: a time-sorted answer examines what can still reach its page, and equals a walk",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    const spec: TreeSpec = {};
    // 120 files over 6 folders, each folder with files of every time; 10 files share each
    // time (the path decides among them: what ties with a page's last match may beat it).
    for (let i = 0; i < 120; i++) {
      spec[`d${i % 6}/f${i}.txt`] = { mtime: T0 + (Math.floor(i / 10) % 12) * DAY };
    }
    for (let d = 0; d < 6; d++) spec[`d${d}`] = { kind: "dir", mtime: T0 - DAY };
    await using tree = await makeTree(spec);
    // Counting what the cut leaves out by reading it again (contract §26): not here.
    const index = await readyIndex(tree.root, {
      indexWorkerUrl: seamIndexWorkerUrl({ countBudget: 0 }),
    });
    // With the budget, the first page reads them all again and counts them.
    const counting = await readyIndex(tree.root);
    try {
      const clock = { now: () => T0 + 100 * DAY };
      const first = await engine(tree.root, { scanner: counting, clock })
        .search({ timeField: "modified", limit: 12 });
      assert.equal(first.stats.totalMatches, 120);
      for (const sort of ["time_desc", "time_asc"]) {
        for (const window of [{}, { from: new Date(T0 + 8 * DAY).toISOString() }]) {
          const args = { timeField: "modified", sort, limit: 12, ...window };
          const indexed = await allPages(engine(tree.root, { scanner: index, clock }), args);
          const walked = await allPages(engine(tree.root, { clock }), args);
          assert.deepEqual(...alike(indexed, walked), JSON.stringify(args));
          const matches = "from" in window ? 40 : 120;
          assert.equal(walked[0]!.stats.totalMatches, matches);
          // A walk (or a focus on the window alone) examines every match for the first page
          // and the second (which keeps every match for the pages after it); the index, once
          // the first page is full, only what could beat its last match, and for the second
          // only what comes after the cursor. It counts what it left out from memory
          // (exact_drops.ts: every file in the window is a match), without reading it again;
          // with a glob it cannot, and the matches are not counted.
          const globbed = await allPages(engine(tree.root, { scanner: index, clock }), {
            ...args,
            glob: "**/*.txt",
          });
          for (const i of [0, 1]) {
            const examined = indexed[i]!.stats.scannedFiles;
            assert.ok(examined < matches, `page ${i + 1} of ${JSON.stringify(args)}: ${examined}`);
            assert.equal(indexed[i]!.stats.totalMatches, matches);
            assert.equal(globbed[i]!.stats.totalMatches, undefined);
          }
          assert.equal(indexed.length, Math.ceil(matches / 12));
        }
      }
    } finally {
      index.close();
      counting.close();
    }
  },
});
