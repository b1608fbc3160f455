/**
 * Real trees, round three (contract §18), end to end with the real server and the runtime's
 * own watcher, two CPU-bound processes beside it: a watched folder removed and made again
 * at once (ext4 gives it the old inode) is watched again, and so is the root; a link inside
 * the root to a sibling never leads the watch outside; the server's private folder, made
 * again after it was removed from outside, is its owner's alone; a full temp folder is said
 * as such, not as the watch limit.
 */
import assert from "node:assert/strict";
import { cpuHogs, indexedServer } from "../helpers/indexed_server.ts";
import { inotifyWatches } from "../helpers/inotify.ts";
import { indexKeeper, privateFolderOf } from "../helpers/sessions.ts";
import { makeTree, T0, type TempTree } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { writeFailure } from "../../src/index/watch/watch_messages.ts";
import { MOST_STUCK } from "../../src/index/watch/stalls.ts";

const linux = Deno.build.os === "linux";
if (!linux) console.log("real trees tests skipped: they read the watches and inodes of Linux");
/** Every entry, newest first: a listing in which any stale time or size shows. */
const ALL = { timeField: "modified", limit: 500, includeDirectories: true };

/** A tree outside the root with `n` folders. */
async function outsideTree(n: number): Promise<TempTree> {
  const outside = await makeTree({}, "fts-outside-");
  for (let i = 0; i < n; i++) Deno.mkdirSync(outside.abs(`d${i}/e`), { recursive: true });
  return outside;
}

/** Writes `text` over the file at `path` in place (same inode), with its own time. */
function edit(path: string, text: string, ms: number): void {
  Deno.writeTextFileSync(path, text);
  Deno.utimeSync(path, new Date(ms), new Date(ms));
}

/**
 * Asks until the server's answer equals a fresh walk's and came from the index (a call may
 * walk while the watch is set up again); fails if it never does.
 */
async function exactFromIndex(s: Awaited<ReturnType<typeof indexedServer>>, what: string) {
  await until(async () => (await s.same(ALL)) === "index", what);
}

Deno.test({
  name: "real trees: a watched folder removed and made again at once (same inode) is watched again",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using outside = await outsideTree(3);
    await using tree = await makeTree({
      "out": { kind: "symlink", target: outside.root }, // the root is watched in parts
      "build/app.js": { mtime: T0, content: "v0" },
      "src/main.ts": { mtime: T0 },
    });
    await using s = await indexedServer(tree.root);
    await using _hogs = cpuHogs();
    assert.equal(await s.same(ALL), "index");
    const ino = Deno.statSync(tree.abs("build")).ino;
    // rm -rf build && mkdir build, as a clean build does; then a build writes in it.
    Deno.removeSync(tree.abs("build"), { recursive: true });
    Deno.mkdirSync(tree.abs("build"));
    edit(tree.abs("build/app.js"), "v1 is longer", T0 + 1000);
    console.log(`build's inode ${Deno.statSync(tree.abs("build")).ino === ino ? "reused" : "new"}`);
    await exactFromIndex(s, "the new build folder, from the index");
    // In-place edits in the new folder: each seen (the old watch left with the old folder).
    edit(tree.abs("build/app.js"), "v2, longer still", T0 + 2000);
    assert.equal(await s.same(ALL), "index");
    edit(tree.abs("build/app.js"), "v3", T0 + 3000);
    assert.equal(await s.same(ALL), "index");
  },
});

Deno.test({
  name: "real trees: the root removed and made again at once is watched again",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "app.js": { mtime: T0, content: "v0" } });
    await using s = await indexedServer(tree.root);
    await using _hogs = cpuHogs();
    assert.equal(await s.same(ALL), "index");
    Deno.removeSync(tree.root, { recursive: true });
    Deno.mkdirSync(tree.root);
    edit(tree.abs("app.js"), "v1 is longer", T0 + 1000);
    await exactFromIndex(s, "the new root, from the index");
    edit(tree.abs("app.js"), "v2, longer still", T0 + 2000);
    assert.equal(await s.same(ALL), "index");
    edit(tree.abs("app.js"), "v3", T0 + 3000);
    assert.equal(await s.same(ALL), "index");
  },
});

Deno.test({
  name: "real trees: a link to a sibling inside the root never leads the watch outside",
  ignore: !linux,
  ...sanitize,
  async fn() {
    // root/a/up -> ../b (a workspace's link), root/b/out -> a tree of 150 folders outside.
    await using outside = await outsideTree(150);
    await using tree = await makeTree({
      "a/x.txt": { mtime: T0 },
      "a/up": { kind: "symlink", target: "../b" },
      "b/y.txt": { mtime: T0 },
      "b/out": { kind: "symlink", target: outside.root },
      "c/z.txt": { mtime: T0 },
    });
    await using s = await indexedServer(tree.root);
    const watches = inotifyWatches(s.conn.pid!)!;
    // Its own folders (4) and its private folder's (2), never the 301 outside.
    assert.ok(watches <= 6, `${watches} inotify watches for a root of 4 folders`);
    assert.equal(await s.same(ALL), "index");
    edit(tree.abs("b/y.txt"), "changed", T0 + 1000);
    edit(tree.abs("a/x.txt"), "changed", T0 + 2000);
    assert.equal(await s.same(ALL), "index");
    assert.ok(inotifyWatches(s.conn.pid!)! <= 6);
  },
});

Deno.test({
  name: "real trees: the private folder made again after it was removed is its owner's alone",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    await using s = await indexedServer(tree.root);
    // The server's private folder: the one in /tmp whose root folder it watches.
    const mine = privateFolderOf(indexKeeper(s.conn, tree.root));
    assert.ok(mine, "the server's private folder");
    Deno.removeSync(mine, { recursive: true });
    // The next call's barrier finds no cookie: the watch is set up again, the folder made again.
    await until(async () => {
      await s.same(ALL);
      return (await s.info()).state === "ready" && exists(mine);
    }, "the watch, set up again");
    assert.equal(Deno.statSync(mine).mode! & 0o777, 0o700);
    assert.equal(Deno.statSync(`${mine}/1`).mode! & 0o777, 0o700);
  },
});

Deno.test("real trees: a full temp folder is said as such, not as the watch limit", () => {
  const full = new Error("No space left on device (os error 28)");
  assert.match(writeFailure(full), /the temp folder is full/);
  assert.doesNotMatch(writeFailure(full), /max_user_watches/);
});

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "real trees: a files-only window skips folders whose own times are recent but files old",
  ...sanitize,
  async fn() {
    // As a fresh clone or an unpack leaves a tree: every folder made now, its files old.
    const spec: Record<string, { mtime: number }> = {};
    for (let d = 0; d < 40; d++) {
      for (let f = 0; f < 50; f++) spec[`pkg${d}/lib/f${f}.js`] = { mtime: T0 + f };
    }
    await using tree = await makeTree(spec);
    const now = new Date();
    for (let d = 0; d < 40; d++) {
      Deno.utimeSync(tree.abs(`pkg${d}/lib`), now, now);
      Deno.utimeSync(tree.abs(`pkg${d}`), now, now);
    }
    await using s = await indexedServer(tree.root);
    const ask = async (args: Record<string, unknown>) => {
      assert.equal(await s.same(args), "index");
      const out = (await s.conn.search(args)).structuredContent as {
        stats: { scannedFiles: number; scannedDirectories: number };
      };
      return out.stats;
    };
    // No file changed in the last hour: no folder below the root needs reading.
    const files = await ask({ timeField: "modified", within: "1h" });
    assert.ok(files.scannedDirectories <= 1, `${files.scannedDirectories} folders read of 81`);
    assert.equal(files.scannedFiles, 0);
    // Folders asked for too: each folder's own time counts, so they are read.
    const withFolders = await ask({
      timeField: "modified",
      within: "1h",
      includeDirectories: true,
    });
    assert.ok(withFolders.scannedDirectories >= 40, `${withFolders.scannedDirectories} folders`);
  },
});

Deno.test({
  name:
    "real trees: a root with links out among 700 folders (as /usr/share/doc) is indexed in parts",
  ignore: !linux,
  ...sanitize,
  async fn() {
    // Two package folders hold a link out; the other 698 are each a part of the watch.
    await using outside = await outsideTree(2);
    const spec: Record<string, { mtime: number } | { kind: "symlink"; target: string }> = {};
    for (let p = 0; p < 700; p++) spec[`pkg${p}/copyright`] = { mtime: T0 + p };
    spec["pkg3/changelog"] = { kind: "symlink", target: outside.abs("d0") };
    spec["pkg600/examples"] = { kind: "symlink", target: outside.abs("d1") };
    await using tree = await makeTree(spec);
    await using s = await indexedServer(tree.root);
    const info = await s.info();
    assert.equal(info.state, "ready", JSON.stringify(info));
    assert.deepEqual(info.readFromDisk, { folders: 3, linksOut: 2, specialFiles: 0 });
    const newest = { timeField: "modified", limit: 5 };
    assert.equal(await s.same(newest), "index");
    // A change in the last part, and in a folder read from disk: both seen, from the index.
    edit(tree.abs("pkg699/copyright"), "changed", T0 + 10 * 86_400_000);
    edit(tree.abs("pkg3/copyright"), "changed too", T0 + 11 * 86_400_000);
    assert.equal(await s.same(newest), "index");
  },
});

Deno.test({
  name: "real trees: FIFOs made again and again stall the watcher, and what that holds is bounded",
  ignore: !linux,
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 12; i++) spec[`d${i}/f.txt`] = { mtime: T0 + i };
    await using tree = await makeTree(spec);
    await using s = await indexedServer(tree.root);
    const pid = s.conn.pid!;
    const before = inotifyInstances(pid);
    // Each FIFO, made in a watched folder, blocks a runtime thread that opens it, for good.
    for (let i = 0; i < 12; i++) {
      await until(async () => ["ready", "off"].includes((await s.info()).state), "settled");
      const fifo = tree.abs(`d${i}/control.pipe`);
      new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
      await s.same(ALL); // exact, whoever answers (the barrier stalls: a walk)
      Deno.removeSync(fifo);
    }
    const held = inotifyInstances(pid) - before;
    assert.ok(held <= MOST_STUCK + 1, `${held} inotify instances more than at start`);
    const info = await s.info();
    assert.equal(info.state, "off", JSON.stringify(info));
    assert.match(info.reason!, /stalled \d+ times on files it opens and blocks on \(FIFOs\)/);
    assert.equal((await s.same(ALL)).startsWith("index"), false); // walks, exact
  },
});

/** How many inotify instances process `pid` holds (`/proc/PID/fd`). */
function inotifyInstances(pid: number): number {
  const out = new Deno.Command("sh", {
    args: ["-c", `ls -l /proc/${pid}/fd 2>/dev/null | grep -c inotify`],
    stdout: "piped",
  }).outputSync();
  return Number(new TextDecoder().decode(out.stdout).trim());
}
