/**
 * A fill on two cores (src/index/fill/fed_fs.ts, fill_worker.ts, fill_feed.ts): the real fill
 * helper walks its share of a tree into a feed; a fill over the index then reads that share
 * from the feed, not from disk, and holds what a plain fill holds. A change noted after the
 * helper read something makes the index read it from disk instead: the entry itself, a
 * folder's listing when an entry in it came or went, everything below a renamed folder.
 */
import assert from "node:assert/strict";
import { FedFs } from "../../src/index/fill/fed_fs.ts";
import { HELPER_SHARE, startFeed } from "../../src/index/fill/fill_feed.ts";
import { fillRequest } from "../../src/index/fill/fill_request.ts";
import { FeedWriter, newFeedRing } from "../../src/index/fill/feed_ring.ts";
import { RecordWriter } from "../../src/index/fill/feed_records.ts";
import { FILE } from "../../src/index/store/entry_columns.ts";
import { reusedInfo } from "../../src/index/store/entry_info.ts";
import { TreeCache } from "../../src/index/cache/tree_cache.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs, type FsPort } from "../../src/ports/fs.ts";
import type { SearchRequest } from "../../src/query/mod.ts";
import { strictGuard } from "../../src/security/guard.ts";
import { scan } from "../../src/walk/scan.ts";
import { WHOLE } from "../../src/walk/shares.ts";
import { WORKER_MODULES } from "../../src/worker_modules.ts";
import { runTask, spawnSandboxed } from "../../src/workers/mod.ts";
import { DAY, makeTree, T0, type TempTree, type TreeSpec } from "../helpers/tree.ts";

const SPEC: TreeSpec = {};
for (const d of ["a", "a/b", "c", "d"]) SPEC[d] = { kind: "dir", mtime: T0 - 9 * DAY };
for (let i = 0; i < 8; i++) {
  for (const d of ["", "a/", "a/b/", "c/", "d/"]) SPEC[`${d}f${i}.txt`] = { mtime: T0 - i * DAY };
}

/** The disk, counting the stats and listings read through it. */
function countingDisk(): FsPort & { stats: number; listings: number } {
  const disk = {
    ...denoFs,
    stats: 0,
    listings: 0,
    lstat(path: string) {
      disk.stats++;
      return denoFs.lstat(path);
    },
    readDir(path: string) {
      disk.listings++;
      return denoFs.readDir(path);
    },
  };
  return disk;
}

/** Runs the real fill helper over `tree` to its end, feeding `fed`. */
async function helperFill(tree: TempTree, fed: FedFs): Promise<void> {
  const ring = newFeedRing(1 << 22); // room for the whole feed: the helper never waits
  fed.feed(ring, tree.root);
  const helper = spawnSandboxed(WORKER_MODULES.fill, [tree.root]);
  try {
    helper.postMessage({ type: "feed", ring });
    await runTask(helper, fillOf(tree), {
      plan: { share: HELPER_SHARE, keepAll: 0 },
      signal: new AbortController().signal,
      graceMs: 1000,
      settle: () => {},
    }).outcome;
  } finally {
    helper.terminate();
  }
}

function fillOf(tree: TempTree): SearchRequest {
  return fillRequest({ path: tree.root, realPath: tree.root }, 1_000);
}

/** The index of `tree` filled over `base`, and every entry as a scan over it gives it. */
async function fillOver(tree: TempTree, base: FsPort): Promise<unknown[]> {
  const cache = new TreeCache({ base, rootReal: tree.root, maxEntries: 1_000 });
  cache.record(true);
  const tools = { fs: cache, clock: systemClock, guard: strictGuard };
  await scan(fillOf(tree), tools, { share: WHOLE, keepAll: 0 });
  return await everything(tree, cache);
}

/** The disk reads of a fill of `tree` with no feed. */
async function readsAlone(tree: TempTree): Promise<{ stats: number; listings: number }> {
  const disk = countingDisk();
  await fillOver(tree, disk);
  return disk;
}

/** Every entry of `tree` with its time and size, as a scan over `fs` finds them. */
async function everything(tree: TempTree, fs: FsPort): Promise<unknown[]> {
  const fill = fillOf(tree);
  const filter = { ...fill.filter, includeDirectories: true };
  const request = { ...fill, filter, limit: 1_000, order: "path_asc" as const };
  const outcome = await scan(request, { fs, clock: systemClock, guard: strictGuard });
  return outcome.collected.first.map((
    m,
  ) => [m.path, m.modified, m.created, m.sizeBytes, m.isDirectory]);
}

Deno.test("fill on two cores: the helper's share comes from the feed, and the index is a plain fill's", async () => {
  await using tree = await makeTree(SPEC);
  const disk = countingDisk();
  const fed = new FedFs(disk);
  await helperFill(tree, fed);
  const held = await fillOver(tree, fed);
  assert.deepEqual(held, await everything(tree, denoFs));
  const entries = Object.keys(SPEC).length;
  // The helper stats every other entry and reads every listing: the index takes those
  // from the feed (and the folders' own stats the helper read to size their listings).
  const alone = await readsAlone(tree);
  assert.ok(alone.stats - disk.stats >= Math.floor(entries / 2), `${disk.stats} of ${alone.stats}`);
  assert.equal(alone.listings, 5);
  assert.equal(disk.listings, 0);
  assert.ok(disk.stats <= entries - Math.floor(entries / 2) + 10, `${disk.stats} of ${entries}`);
  fed.end(); // from now on, reads go to disk
  [...fed.readDir(tree.root)];
  assert.equal(disk.listings, 1);
});

Deno.test("fill on two cores: what a change noted since concerns is read from disk", async () => {
  await using tree = await makeTree(SPEC);
  const fed = new FedFs(denoFs);
  await helperFill(tree, fed);
  // After the helper read them: a file's time changes, a file comes into c, a folder is renamed.
  const touched = tree.abs("d/f3.txt");
  await Deno.utime(touched, new Date(T0 + DAY), new Date(T0 + DAY));
  await Deno.writeTextFile(tree.abs("c/new.txt"), "new");
  await Deno.rename(tree.abs("a/b"), tree.abs("a/b2"));
  fed.changed([
    { kind: "modify", paths: [touched] },
    { kind: "create", paths: [tree.abs("c/new.txt")] },
    { kind: "rename", paths: [tree.abs("a/b"), tree.abs("a/b2")] },
  ]);
  assert.deepEqual(await fillOver(tree, fed), await everything(tree, denoFs));
});

Deno.test("fill on two cores: after a lost event (rescan) nothing is taken from the feed", async () => {
  await using tree = await makeTree(SPEC);
  const disk = countingDisk();
  const fed = new FedFs(disk);
  await helperFill(tree, fed);
  await Deno.utime(tree.abs("c/f1.txt"), new Date(T0 + DAY), new Date(T0 + DAY));
  fed.changed("all");
  assert.deepEqual(await fillOver(tree, fed), await everything(tree, denoFs));
  // Every read from disk, as a fill alone makes them.
  const alone = await readsAlone(tree);
  assert.deepEqual([disk.stats, disk.listings], [alone.stats, alone.listings]);
  assert.ok(disk.listings >= 5);
});

Deno.test("fill on two cores: a helper that fails is said, and ending the feed tells the index worker", async () => {
  const told: unknown[] = [];
  const toIndex = (ring: SharedArrayBuffer | null) => told.push({ type: "feed", ring });
  let failed!: () => void;
  const failure = new Promise<void>((resolve) => failed = resolve);
  const end = startFeed(toIndex, fillRequest({ path: "/nowhere", realPath: "/nowhere" }, 10), {
    url: new URL("../helpers/no_such_fill_worker.ts", import.meta.url),
    readPaths: [],
    giveWay: new Int32Array(new SharedArrayBuffer(4)),
    graceMs: 1000,
    onFailed: failed,
  });
  await failure; // the module cannot load: said once, and nothing thrown
  end();
  assert.deepEqual(told.map((m) => (m as { ring: unknown }).ring instanceof SharedArrayBuffer), [
    true,
    false,
  ]);
  assert.deepEqual(told[1], { type: "feed", ring: null });
});

Deno.test("fill on two cores: a long feed is taken in walk order, what the index read itself dropped", () => {
  const ring = newFeedRing(1 << 22);
  let fromDisk = 0;
  const fed = new FedFs({
    ...denoFs,
    lstat: () => (fromDisk++, reusedInfo(FILE, 0, 1, 0)), // the disk: time 1
  });
  fed.feed(ring, "/r");
  const writer = new RecordWriter(new FeedWriter(ring));
  const path = (i: number) => `/r/${String(i).padStart(6, "0")}`;
  const info = { isFile: true, isDirectory: false, isSymlink: false, size: 0 };
  for (let i = 0; i < 20_000; i++) {
    if (i % 3 !== 0) {
      writer.stat(path(i), { ...info, mtime: new Date(2), birthtime: null } as Deno.FileInfo);
    }
  }
  writer.flush();
  const times = Array.from({ length: 20_000 }, (_, i) => fed.lstat(path(i)).mtime!.getTime());
  assert.deepEqual(times, Array.from({ length: 20_000 }, (_, i) => i % 3 === 0 ? 1 : 2));
  assert.equal(fromDisk, 6_667); // only what the feed did not bring
});

Deno.test("fill on two cores: a change reported under a link inside the root concerns the real entry", async () => {
  await using tree = await makeTree(SPEC);
  // A JavaScript workspace: the runtime reports events under whichever path it walked last.
  Deno.symlinkSync(tree.abs("c"), tree.abs("link-to-c"));
  const fed = new FedFs(denoFs);
  await helperFill(tree, fed);
  for (let i = 0; i < 8; i++) { // every other one was fed: one of these was
    await Deno.utime(tree.abs(`c/f${i}.txt`), new Date(T0 + DAY), new Date(T0 + DAY));
  }
  await Deno.writeTextFile(tree.abs("c/new.txt"), "new");
  fed.changed([
    ...Array.from({ length: 8 }, (_, i) => ({
      kind: "modify",
      paths: [tree.abs(`link-to-c/f${i}.txt`)],
    })),
    { kind: "create", paths: [tree.abs("link-to-c/new.txt")] },
  ]);
  assert.deepEqual(await fillOver(tree, fed), await everything(tree, denoFs));
});
