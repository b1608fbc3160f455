/**
 * A root's journal fed the events as the runtime gives them on a busy machine: a folder
 * moved into a folder made just before, which the runtime watched only after the move,
 * gives one end of the move (its old name gone) and never the other; the journal finds it
 * in the folder that appeared by its inode and says it renamed, as when both ends came.
 * A listing read by a question before the events of what changed in it were taken (the
 * disk ahead of the events, or a folder not yet watched) loses none of those changes. A
 * package moved into place while a batch reads the disk leaves nothing under its old name.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { TreeCache } from "../../src/index/cache/tree_cache.ts";
import { fillRequest } from "../../src/index/fill/fill_request.ts";
import { RootJournal } from "../../src/index/journal/root_journal.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs, type FsPort } from "../../src/ports/fs.ts";
import { strictGuard } from "../../src/security/guard.ts";
import { scan } from "../../src/walk/scan.ts";
import { asDiff, diff, type NetChange, snapshot } from "../helpers/snapshot.ts";
import { makeTree, T0, type TreeSpec } from "../helpers/tree.ts";

type Root = { path: string; realPath: string };

/**
 * A journal begun on `spec`'s tree, filled through its held tree, with its tree and a
 * question's scan through that held tree; the journal reads the disk through `disk`.
 */
async function journalOn(spec: TreeSpec, disk: FsPort = denoFs) {
  const tree = await makeTree(spec);
  const root: Root = { path: tree.root, realPath: tree.root };
  const cache = new TreeCache({ base: denoFs, rootReal: tree.root, maxEntries: 1_000 });
  cache.record(true);
  const question = () =>
    scan(fillRequest(root, 1_000), { fs: cache, clock: systemClock, guard: strictGuard });
  await question(); // the fill
  const journal = new RootJournal(cache, disk, { maxSteps: 1_000, maxAgeMs: 1e9 }, Date.now);
  journal.begin();
  return { tree, root, cache, question, journal, from: journal.position };
}

/** What the journal says changed since position `from`, entries and folders, a line each. */
function changesSince(journal: RootJournal, root: Root, from: number, expand = false) {
  return netSince(journal, root, from, expand).map((c) => [
    c.path,
    c.change,
    c.previousPath ?? null,
  ]);
}

/** The journal's net changes since position `from`, entries and folders. */
function netSince(journal: RootJournal, root: Root, from: number, expand: boolean) {
  const answer = journal.ask({
    since: { position: from },
    until: null,
    startPath: "",
    filter: { ...fillRequest(root, 1_000).filter, includeDirectories: true },
    expand,
    after: null,
    limit: 100,
  });
  assert.ok(!("fresh" in answer), "the journal answers");
  return answer.changes;
}

Deno.test({
  name: "root journal: a folder moved into one not yet watched is renamed, found by its inode",
  ignore: Deno.build.os === "windows",
  async fn() {
    const { tree, root, journal, from } = await journalOn({
      "src/pkg0/lib/a.js": { mtime: T0 },
      "src/pkg0/lib/b.js": { mtime: T0 },
      "src/pkg1/c.js": { mtime: T0 },
    });
    await using _tree = tree;
    Deno.mkdirSync(tree.abs("moved"));
    Deno.renameSync(tree.abs("src/pkg0"), tree.abs("moved/pkg0"));
    // The runtime: `moved` made, `src/pkg0` moved away (to a folder it did not watch yet).
    const unseen = journal.apply([
      { kind: "create", paths: [tree.abs("moved")] },
      { kind: "rename", paths: [tree.abs("src/pkg0")] },
    ]);
    // The runtime's watch of the folder may be lost (held_watches.ts).
    assert.deepEqual(unseen, [{ from: tree.abs("src/pkg0"), to: tree.abs("moved/pkg0") }]);
    const lines = changesSince(journal, root, from);
    assert.deepEqual(lines.filter(([, change]) => change !== "modified"), [
      ["moved", "created", null],
      ["moved/pkg0", "renamed", "src/pkg0"],
    ]);
  },
});

Deno.test({
  name: "root journal: a folder moved into one that appeared a batch before is renamed too",
  ignore: Deno.build.os === "windows",
  async fn() {
    const { tree, root, journal, from } = await journalOn({
      "src/pkg0/lib/a.js": { mtime: T0 },
      "src/pkg1/c.js": { mtime: T0 },
    });
    await using _tree = tree;
    Deno.mkdirSync(tree.abs("moved"));
    Deno.renameSync(tree.abs("src/pkg0"), tree.abs("moved/pkg0"));
    // The events come apart: `moved` (read below: pkg0 is in it already), then the move's
    // one end, in the next batch.
    assert.deepEqual(journal.apply([{ kind: "create", paths: [tree.abs("moved")] }]), []);
    assert.deepEqual(journal.apply([{ kind: "rename", paths: [tree.abs("src/pkg0")] }]), [
      { from: tree.abs("src/pkg0"), to: tree.abs("moved/pkg0") },
    ]);
    assert.deepEqual(changesSince(journal, root, from).filter(([, c]) => c !== "modified"), [
      ["moved", "created", null],
      ["moved/pkg0", "renamed", "src/pkg0"],
    ]);
  },
});

Deno.test({
  name: "root journal: a file made and listed by a question before its event is still created",
  async fn() {
    const { tree, root, question, journal, from } = await journalOn({ "d/a.js": { mtime: T0 } });
    await using _tree = tree;
    Deno.writeFileSync(tree.abs("d/f1.js"), new Uint8Array(1));
    Deno.writeFileSync(tree.abs("d/f2.js"), new Uint8Array(1));
    Deno.removeSync(tree.abs("d/a.js"));
    journal.apply([{ kind: "create", paths: [tree.abs("d/f1.js")] }]);
    // A question reads `d` again (its listing was forgotten): f2 made, a.js gone, no event yet.
    await question();
    journal.apply([
      { kind: "create", paths: [tree.abs("d/f2.js")] },
      { kind: "remove", paths: [tree.abs("d/a.js")] },
    ]);
    assert.deepEqual(changesSince(journal, root, from).filter(([, c]) => c !== "modified"), [
      ["d/a.js", "removed", null],
      ["d/f1.js", "created", null],
      ["d/f2.js", "created", null],
    ]);
  },
});

Deno.test({
  name: "root journal: what is written in a folder before the runtime watches it is created",
  async fn() {
    const { tree, root, cache, question, journal, from } = await journalOn({
      "a.js": { mtime: T0 },
    });
    await using _tree = tree;
    Deno.mkdirSync(tree.abs("p"));
    Deno.writeFileSync(tree.abs("p/f0.js"), new Uint8Array(1));
    journal.apply([{ kind: "create", paths: [tree.abs("p")] }]); // read below: f0
    // Written before the runtime watches `p`: no event, ever. A question reads `p` meanwhile.
    Deno.writeFileSync(tree.abs("p/f1.js"), new Uint8Array(1));
    cache.forgetFolder(tree.abs("p")); // behind the watcher: each scan reads it from disk
    await question();
    journal.caughtUp([tree.abs("p")]);
    assert.deepEqual(changesSince(journal, root, from).filter(([, c]) => c !== "modified"), [
      ["p", "created", null],
      ["p/f0.js", "created", null],
      ["p/f1.js", "created", null],
    ]);
  },
});

Deno.test({
  name: "root journal: what is written in a folder before the runtime watches it, then " +
    "removed, is removed since a clock given in between",
  async fn() {
    const { tree, root, journal } = await journalOn({ "a.js": { mtime: T0 } });
    await using _tree = tree;
    Deno.mkdirSync(tree.abs("p/lib"), { recursive: true });
    Deno.writeFileSync(tree.abs("p/lib/f0.js"), new Uint8Array(1));
    journal.apply([{ kind: "create", paths: [tree.abs("p")] }]); // read below: lib, f0
    // Written before the runtime watches `lib` (`mkdir -p` then writes, on a busy machine).
    Deno.writeFileSync(tree.abs("p/lib/f1.js"), new Uint8Array(1));
    const clock = journal.clock(); // a search's answer gives it; no question since
    Deno.removeSync(tree.abs("p"), { recursive: true });
    journal.apply([{ kind: "remove", paths: [tree.abs("p")] }]);
    assert.deepEqual(changesSince(journal, root, clock, true), [
      ["p", "removed", null],
      ["p/lib", "removed", null],
      ["p/lib/f0.js", "removed", null],
      ["p/lib/f1.js", "removed", null],
    ]);
  },
});

Deno.test({
  name: "root journal: a folder that appeared inside one that appeared too is read once again",
  async fn() {
    const reads: string[] = [];
    const disk = { ...denoFs, readDir: (path: string) => (reads.push(path), denoFs.readDir(path)) };
    const { tree, root, journal } = await journalOn({ "a.js": { mtime: T0 } }, disk);
    await using _tree = tree;
    Deno.mkdirSync(tree.abs("p/lib"), { recursive: true });
    journal.apply([{ kind: "create", paths: [tree.abs("p")] }]);
    journal.apply([{ kind: "create", paths: [tree.abs("p/lib")] }]);
    Deno.writeFileSync(tree.abs("p/lib/f1.js"), new Uint8Array(1)); // before `lib`'s watch
    reads.length = 0;
    const clock = journal.clock();
    // The root's listing changed too (`p` made in it): listed again for what went from it.
    assert.deepEqual(reads, [tree.root, tree.abs("p"), tree.abs("p/lib")], "each listed once");
    Deno.removeSync(tree.abs("p"), { recursive: true });
    journal.apply([{ kind: "remove", paths: [tree.abs("p")] }]);
    assert.deepEqual(changesSince(journal, root, clock, true), [
      ["p", "removed", null],
      ["p/lib", "removed", null],
      ["p/lib/f1.js", "removed", null],
    ]);
  },
});

Deno.test({
  name: "root journal: a package moved away while its batch is read leaves nothing behind",
  ignore: Deno.build.os === "windows",
  async fn() {
    // The install of changes_users_test.ts, caught in a CI run: `.staging` is made with
    // lib0 in it (watched with it, no event for lib0), then lib2 (an event of its own);
    // f2.js is written in lib2 before the runtime watches it (no event). The batch with
    // both creations reads `.staging` below (f2.js there), then the package manager moves
    // `.staging` into place before the batch reads lib2 (gone).
    let moveAfter: string | null = null;
    let move = () => {};
    const disk: FsPort = {
      ...denoFs,
      lstat: (path) => {
        const info = denoFs.lstat(path);
        if (path === moveAfter) (moveAfter = null, move());
        return info;
      },
    };
    const { tree, root, journal, from } = await journalOn({ "package.json": { mtime: T0 } }, disk);
    await using _tree = tree;
    const before = snapshot(tree.root);
    for (const file of ["lib0/f0.js", "lib2/f2.js"]) {
      Deno.mkdirSync(tree.abs(`node_modules/.staging/${dirname(file)}`), { recursive: true });
      Deno.writeTextFileSync(tree.abs(`node_modules/.staging/${file}`), file);
    }
    moveAfter = tree.abs("node_modules/.staging/lib2/f2.js");
    move = () => Deno.renameSync(tree.abs("node_modules/.staging"), tree.abs("node_modules/pkg"));
    journal.apply([
      { kind: "create", paths: [tree.abs("node_modules")] },
      { kind: "create", paths: [tree.abs("node_modules/.staging")] },
      { kind: "create", paths: [tree.abs("node_modules/.staging/lib2")] },
    ]);
    assert.equal(moveAfter, null, "moved while the batch was read");
    // The move as Deno gives it: its old name gone, its new one, then both.
    const [staging, pkg] = [tree.abs("node_modules/.staging"), tree.abs("node_modules/pkg")];
    journal.apply([
      { kind: "remove", paths: [staging] },
      { kind: "rename", paths: [pkg] },
      { kind: "rename", paths: [staging, pkg] },
    ]);
    const seen = (c: NetChange) => c.change !== "modified";
    assert.deepEqual(
      asDiff(netSince(journal, root, from, true)).filter(seen),
      diff(before, snapshot(tree.root)).filter(seen),
    );
  },
});
