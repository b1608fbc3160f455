/**
 * The watch stays inside (contract §18, "The watch's reach"), end to end with the real
 * server and the runtime's own watcher: a link inside the root to a folder outside it is
 * never walked or watched (the server's inotify watches are counted in `/proc`), whether it
 * was there at start-up, made later, or moved in inside a folder; the folders on the way to
 * it are read from disk by every scan, so their changes are still seen, from the index; a
 * root with links out in too many places walks, with the reason in `fs.list_roots`.
 */
import assert from "node:assert/strict";
import { indexedServer } from "../helpers/indexed_server.ts";
import { connect, rootIndex } from "../helpers/server.ts";
import { inotifyWatches } from "../helpers/inotify.ts";
import { MOST_PARTS } from "../../src/index/watch/watch_plan.ts";
import { DAY, makeTree, T0, type TempTree, touch } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

const linux = Deno.build.os === "linux";
if (!linux) console.log("watch reach tests skipped: inotify watches are counted on Linux only");
/** Every entry, newest first: a listing in which any stale time or size shows. */
const ALL = { timeField: "modified", limit: 500, includeDirectories: true };
/** Subfolders of the outside tree: a watch that reached it would hold this many more. */
const OUTSIDE_FOLDERS = 120;
/** Watches a server may hold beyond one per folder of its root: its private folder's. */
const OWN_WATCHES = 2;

/** A tree outside the root with {@linkcode OUTSIDE_FOLDERS} folders. */
async function outsideTree(): Promise<TempTree> {
  const outside = await makeTree({}, "fts-outside-");
  for (let i = 0; i < OUTSIDE_FOLDERS; i++) {
    Deno.mkdirSync(outside.abs(`d${i}/e`), { recursive: true });
  }
  return outside;
}

/** Folders in the root, itself included, not through links. */
function foldersIn(root: string): number {
  let n = 1;
  for (const e of Deno.readDirSync(root)) if (e.isDirectory) n += foldersIn(`${root}/${e.name}`);
  return n;
}

Deno.test({
  name: "watch reach: a link out at start-up is never watched; the folders on its way still seen",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using outside = await outsideTree();
    await using tree = await makeTree({
      "f.txt": { mtime: T0 },
      "a/g.txt": { mtime: T0 },
      "a/b/h.txt": { mtime: T0 },
      "c/i.txt": { mtime: T0 },
      "c/d/j.txt": { mtime: T0 },
      "out": { kind: "symlink", target: outside.root },
      "a/b/out": { kind: "symlink", target: outside.abs("d1") },
      "a/file-link": { kind: "symlink", target: outside.abs("d2/e") },
    });
    await using s = await indexedServer(tree.root);
    const pid = s.conn.pid!;
    const bound = foldersIn(tree.root) + OWN_WATCHES;
    assert.ok(inotifyWatches(pid)! <= bound, `${inotifyWatches(pid)} watches, ${bound} folders`);
    assert.equal(await s.same(ALL), "index");
    // In folders the watch leaves out (on the way to a link out) and in a watched part.
    touch(tree.abs("f.txt"), T0 + DAY);
    Deno.writeTextFileSync(tree.abs("a/b/new.txt"), "new");
    touch(tree.abs("c/d/j.txt"), T0 + 2 * DAY);
    assert.equal(await s.same(ALL), "index");
    Deno.removeSync(tree.abs("a/g.txt"));
    assert.equal(await s.same(ALL), "index");
    // A folder made where no watch reaches: seen at once, and watched from then on.
    Deno.mkdirSync(tree.abs("n"));
    Deno.writeTextFileSync(tree.abs("n/y.txt"), "y");
    await s.same(ALL);
    await until(async () => (await s.info()).state === "ready", "the index, planned again");
    touch(tree.abs("n/y.txt"), T0 + 3 * DAY);
    assert.equal(await s.same(ALL), "index");
    const again = foldersIn(tree.root) + OWN_WATCHES;
    assert.ok(inotifyWatches(pid)! <= again, `${inotifyWatches(pid)} watches, ${again} folders`);
  },
});

Deno.test({
  name: "watch reach: a link out made later, or moved in inside a folder, is watched no longer",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using outside = await outsideTree();
    await using away = await makeTree({ "x/k.txt": { mtime: T0 } }, "fts-away-");
    await using tree = await makeTree({ "a/g.txt": { mtime: T0 }, "c/i.txt": { mtime: T0 } });
    await using s = await indexedServer(tree.root);
    const pid = s.conn.pid!;
    const inside = () => inotifyWatches(pid)! <= foldersIn(tree.root) + OWN_WATCHES;
    assert.ok(inside());
    // A folder with a link out moved in: the runtime walks it through the link at once.
    Deno.symlinkSync(outside.root, away.abs("x/out"));
    Deno.renameSync(away.abs("x"), tree.abs("a/x"));
    await s.same(ALL);
    await until(async () => inside() && (await s.info()).state === "ready", "the watch inside");
    assert.equal(await s.same(ALL), "index");
    // A link out made in a watched folder, which is then renamed (walked again).
    Deno.symlinkSync(outside.root, tree.abs("c/out"));
    await s.same(ALL);
    Deno.renameSync(tree.abs("c"), tree.abs("c2"));
    await s.same(ALL);
    await until(async () => inside() && (await s.info()).state === "ready", "the watch inside");
    touch(tree.abs("c2/i.txt"), T0 + DAY);
    assert.equal(await s.same(ALL), "index");
  },
});

Deno.test({
  name: "watch reach: links out in too many places: the root walks, and says why",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using outside = await outsideTree();
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i <= MOST_PARTS; i++) spec[`p${i}/f.txt`] = { mtime: T0 };
    await using tree = await makeTree(spec);
    Deno.symlinkSync(outside.root, tree.abs("out"));
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    await until(async () => (await rootIndex(conn)).state === "off", "the root off");
    assert.match((await rootIndex(conn)).reason ?? "", /links lead out of it in too many places/);
    assert.equal(inotifyWatches(conn.pid!), 0);
  },
});
