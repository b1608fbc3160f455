/**
 * What a held tree says of itself without reading anything: how much a scan focused on a
 * window and not cut to its page reads at most (contract §26: an indexed answer reads
 * uncut at once, and counts, when that is within the count budget); and its time order kept
 * up to date ahead of the next question.
 */
import assert from "node:assert/strict";
import { TreeCache } from "../../src/index/cache/tree_cache.ts";
import { fillRequest } from "../../src/index/fill/fill_request.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs } from "../../src/ports/fs.ts";
import { strictGuard } from "../../src/security/guard.ts";
import { scan } from "../../src/walk/scan.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { timeOrderBytes, windowCount } from "../../src/index/focus/time_order.ts";

Deno.test("held view: a window's whole read is bounded by the folders and the entries in it", async () => {
  const spec: TreeSpec = {};
  for (let i = 0; i < 30; i++) spec[`d${i % 3}/f${i}.txt`] = { mtime: T0 + (i % 10) * DAY };
  await using tree = await makeTree(spec);
  const root = { path: tree.root, realPath: tree.root };
  const cache = new TreeCache({ base: denoFs, rootReal: tree.root, maxEntries: 1_000 });
  cache.record(true);
  await scan(fillRequest(root, 1_000), { fs: cache, clock: systemClock, guard: strictGuard });
  const window = (days: number) => ({
    created: false,
    from: T0,
    to: T0 + days * DAY,
    filesOnly: true,
  });
  // 4 folders held (the root and d0..d2); 3 files a day, and the folders' own times (now:
  // outside a window of the past), so 3 + 4 for one day, 30 + 4 for all ten.
  assert.equal(cache.view.wholeReadAtMost(window(1), 100), 7);
  assert.equal(cache.view.wholeReadAtMost(window(10), 100), 34);
  // Past `most`, it stops: not worth reading uncut.
  assert.equal(cache.view.wholeReadAtMost(window(10), 33), Infinity);
  assert.equal(cache.view.wholeReadAtMost(window(1), 3), Infinity);
});

Deno.test("held view: the time order is merged in a quiet turn once due, and counts as before", async () => {
  // 10 folders of 10 files, a file a day over 20 days (100 files: a merge is due at 4
  // changed records).
  const spec: TreeSpec = {};
  for (let i = 0; i < 100; i++) spec[`d${i % 10}/f${i}.txt`] = { mtime: T0 + (i % 20) * DAY };
  await using tree = await makeTree(spec);
  const root = { path: tree.root, realPath: tree.root };
  /** The cache, with its tree in sight (the time order is kept per tree). */
  class Seen extends TreeCache {
    get held() {
      return this.tree;
    }
  }
  const cache = new Seen({ base: denoFs, rootReal: tree.root, maxEntries: 1_000 });
  cache.record(true);
  const fill = () =>
    scan(fillRequest(root, 1_000), { fs: cache, clock: systemClock, guard: strictGuard });
  await fill();
  const window = {
    created: false,
    files: true,
    folders: false,
    startAbs: tree.root,
    visitsStart: false,
    from: T0,
    to: T0 + 10 * DAY,
    maxDepth: 99,
    vcsLeftOut: false,
  };
  cache.view.keepOrder();
  assert.equal(timeOrderBytes(cache.held), 0, "no order until a question makes one");
  assert.deepEqual(windowCount(cache.held, window), { matches: 50, vcs: 0 });
  // Five folders change (a file each moves out of the window), and are read again.
  const moved = [0, 21, 42, 63, 84].map((i) => `d${i % 10}/f${i}.txt`);
  for (const f of moved) {
    await Deno.utime(tree.abs(f), new Date(T0 + 30 * DAY), new Date(T0 + 30 * DAY));
  }
  cache.apply([{ kind: "modify", paths: moved.map((f) => tree.abs(f)) }]);
  await fill();
  assert.equal(cache.held.folders.changes!.length, 5, "read with the order at each question");
  cache.view.keepOrder();
  assert.equal(cache.held.folders.changes!.length, 0, "merged in: a question reads none");
  assert.deepEqual(windowCount(cache.held, window), { matches: 45, vcs: 0 });
});
