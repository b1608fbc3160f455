/**
 * Never stale (contract §18), end to end: the real server (INDEX=on, the runtime's own
 * watcher) is asked right after everyday changes, and must give what a fresh walk gives,
 * from its index where it can: an editor's save (a temp file renamed over the name, `sed
 * -i`), a file replaced by a hard link, two files exchanged in one step, a folder renamed
 * away and back; a JavaScript workspace whose packages are reached through links (the
 * runtime reports their events under the link's path, and drops the watch of a package when
 * a link to it is removed); a burst of 20,000 changed times
 * with both cores busy (more events than the kernel's queue holds); a FIFO, made before
 * or after start-up; and a tree that keeps changing while its index is built.
 */
import assert from "node:assert/strict";
import { canExchange, exchange } from "../helpers/exchange.ts";
import { cpuHogs, indexedServer } from "../helpers/indexed_server.ts";
import { connect, rootIndex } from "../helpers/server.ts";
import { NO_INDEX } from "../helpers/live_index.ts";
import { MOUNT_SKIP, mountOver } from "../helpers/mounts.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

const posix = Deno.build.os !== "windows";
/** Every entry, newest first: a listing in which any stale time or size shows. */
const ALL = { timeField: "modified", limit: 500, includeDirectories: true };
/** What changed in the last hour. */
const RECENT = { timeField: "modified", within: "1h", limit: 500 };

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sh(script: string, cwd: string): void {
  const out = new Deno.Command("sh", { args: ["-c", script], cwd }).outputSync();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

Deno.test({
  name: "never stale: editors' saves, hard links, exchanges and a folder renamed back",
  ignore: !posix,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({
      "notes.txt": { mtime: T0, content: "old" },
      "sed.txt": { mtime: T0, content: "old" },
      "x.txt": { mtime: T0 - DAY, content: "another file" },
      "a.txt": { mtime: T0 - 2 * DAY, content: "a" },
      "b.txt": { mtime: T0 - 3 * DAY, content: "bbb" },
      "d/in.txt": { mtime: T0 },
      "d": { kind: "dir", mtime: T0 },
    });
    await using s = await indexedServer(tree.root);
    assert.equal(await s.same(ALL), "index");
    // An editor's save: a temp file written, then renamed over the name.
    Deno.writeTextFileSync(tree.abs("notes.txt.tmp"), "new content");
    Deno.renameSync(tree.abs("notes.txt.tmp"), tree.abs("notes.txt"));
    assert.deepEqual((await s.matches(RECENT)).map((m) => m.path), ["notes.txt"]);
    assert.equal(await s.same(ALL), "index");
    // sed -i does the same with its own temp name.
    sh("sed -i.orig 's/old/new/' sed.txt", tree.root); // GNU's and BSD's sed both take this
    assert.equal(await s.same(RECENT), "index");
    assert.equal(await s.same(ALL), "index");
    // rm f && ln x f: the name now leads to another file.
    sh("rm a.txt && ln x.txt a.txt", tree.root);
    assert.equal(await s.same(ALL), "index");
    // Two files exchanged in one step (no file is ever missing).
    if (canExchange) {
      exchange(tree.abs("b.txt"), tree.abs("notes.txt"));
      assert.equal(await s.same(ALL), "index");
    }
    // A folder renamed away and back, then something made in it.
    sh("mv d d2 && mv d2 d && echo x > d/made.txt", tree.root);
    assert.equal(await s.same(ALL), "index");
  },
});

Deno.test({
  name: "never stale: a JavaScript workspace, its packages reached through links",
  ignore: !posix,
  ...sanitize,
  async fn() {
    const spec: TreeSpec = {
      "packages/pkg/src/a.ts": { mtime: T0 },
      "packages/pkg/package.json": { mtime: T0 },
      "packages/two/b.ts": { mtime: T0 },
      "node_modules/@me/pkg": { kind: "symlink", target: "../../packages/pkg" },
      "node_modules/.pnpm/pkg": { kind: "symlink", target: "../../packages/pkg" }, // two links
      "packages/pkg/up": { kind: "symlink", target: ".." }, // a link to a parent folder
      "releases/v2/app.js": { mtime: T0 },
      "deploy/current": { kind: "symlink", target: "../releases/v2" },
    };
    await using tree = await makeTree(spec);
    await using s = await indexedServer(tree.root);
    assert.equal(await s.same(ALL), "index");
    // Edits to the real files: the runtime may report them under a link's path.
    Deno.writeTextFileSync(tree.abs("packages/pkg/src/a.ts"), "export const a = 2;");
    assert.ok((await s.matches(RECENT)).some((m) => m.path === "packages/pkg/src/a.ts"));
    assert.equal(await s.same(RECENT), "index");
    assert.equal(await s.same(ALL), "index");
    Deno.writeTextFileSync(tree.abs("releases/v2/app.js"), "v2.1");
    assert.equal(await s.same(ALL), "index");
    // A file made through a link: it lies in the real folder.
    Deno.writeTextFileSync(tree.abs("node_modules/@me/pkg/src/new.ts"), "new");
    assert.equal(await s.same(RECENT), "index");
    assert.equal(await s.same(ALL), "index");
    // A link made after start-up, then a change through it and one through the real path.
    Deno.symlinkSync("../packages/two", tree.abs("node_modules/two"));
    Deno.writeTextFileSync(tree.abs("node_modules/two/c.ts"), "c");
    Deno.writeTextFileSync(tree.abs("packages/two/b.ts"), "b2");
    assert.equal(await s.same(ALL), "index");
    // Links removed, as an install or a deploy does: the runtime drops the watch of the folder
    // each led to (it named it by the link's path too). Held again, edits in them are seen.
    Deno.removeSync(tree.abs("node_modules/@me/pkg"));
    Deno.removeSync(tree.abs("deploy/current"));
    assert.equal(await s.same(ALL), "index");
    Deno.writeTextFileSync(tree.abs("packages/pkg/package.json"), "{}");
    Deno.writeTextFileSync(tree.abs("releases/v2/app.js"), "v2.2");
    assert.equal(await s.same(ALL), "index");
  },
});

Deno.test({
  name: "never stale: 20,000 times changed at once, with both cores busy",
  ignore: !posix,
  ...sanitize,
  async fn() {
    const spec: TreeSpec = {};
    for (let i = 0; i < 20_000; i++) spec[`d${i % 20}/f${i}.txt`] = { mtime: T0, content: "" };
    await using tree = await makeTree(spec);
    await using s = await indexedServer(tree.root);
    assert.equal(await s.same({ timeField: "modified", limit: 5 }), "index");
    // Three rounds, each to another day: stale entries were the ones the burst reached last.
    for (let round = 0; round < 3; round++) {
      await using _hogs = cpuHogs();
      // As `touch -d 2024-06-01 *`, a `git checkout` or `tar x` would.
      const t = Date.UTC(2024, 5, 1 + round);
      for (let i = 0; i < 20_000; i++) {
        Deno.utimeSync(tree.abs(`d${i % 20}/f${i}.txt`), new Date(t), new Date(t));
      }
      // Asked at once: no other time may be left, older or newer.
      const after = { timeField: "modified", from: new Date(t + 1000).toISOString(), limit: 10 };
      const before = { timeField: "modified", to: new Date(t).toISOString(), limit: 10 };
      assert.deepEqual(await s.matches(after), [], `round ${round}`);
      assert.deepEqual(await s.matches(before), [], `round ${round}`);
      await s.same({ timeField: "modified", sort: "path_asc", limit: 100, path: "d7" });
      await until(async () => (await s.info()).state === "ready", "the index again");
    }
    // The root learns every entry again (or never lost any), then answers from its index. A
    // burst's overflow can be told after the index was seen ready again (the kernel's notice
    // is the last of its queue): ready is then learned once more. Every answer equals a walk.
    await until(
      async () =>
        (await s.same({ timeField: "modified", sort: "time_asc", limit: 100 })) === "index",
      "an answer from the index again",
    );
  },
});

Deno.test({
  name:
    "never stale: a FIFO costs its folder, not its root: made later, the watch is planned again without that folder; there before, never watched",
  ignore: !posix,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({
      "a.txt": { mtime: T0 },
      "d/b.txt": { mtime: T0 },
      "e/c.txt": { mtime: T0 },
      "e/deep/f.txt": { mtime: T0 },
    });
    /** What the root reads from disk: its root and `d` (on the FIFO's way), not `e`. */
    const fromDisk = { folders: 2, linksOut: 0, specialFiles: 1 };
    {
      await using s = await indexedServer(tree.root, {});
      assert.equal((await s.info()).readFromDisk, undefined);
      sh("mkfifo d/fifo", tree.root);
      Deno.writeTextFileSync(tree.abs("a.txt"), "changed after the FIFO");
      // The watcher stalls on the FIFO: the call walks once its barrier's deadline passes,
      // and the watch is planned again, leaving the FIFO's folder out. (Or the index read
      // `d` again first, its time moved, and found the FIFO there: the answer nobody asked
      // for, src/index/warm_up.ts, may come after the FIFO on a loaded machine. Or that
      // replanning began before the call came: the call walks while the watch starts again,
      // and says why. Whichever came first, a walk answers, never the index as it was.)
      assert.match(
        await s.same(RECENT),
        /did not pass a barrier|a FIFO or device file appeared in a watched folder/,
      );
      await until(async () => (await s.info()).state === "ready", "the index again");
      assert.deepEqual((await s.info()).readFromDisk, fromDisk);
      // Every other folder answers from the index, and so does the whole root (its
      // unwatched folders read from disk): changes there seen at once.
      assert.equal(await s.same({ ...ALL, path: "e" }), "index");
      Deno.writeTextFileSync(tree.abs("e/deep/f.txt"), "changed in a watched part");
      Deno.writeTextFileSync(tree.abs("d/b.txt"), "changed beside the FIFO");
      assert.equal(await s.same(RECENT), "index");
      assert.equal(await s.same(ALL), "index");
    }
    // Started with the FIFO there, and a link to it in another folder: their folders never
    // watched, and the FIFO never opened (a writer would then find a reader and finish; it
    // is given a second and must not).
    Deno.mkdirSync(tree.abs("l"));
    Deno.symlinkSync("../d/fifo", tree.abs("l/to-fifo"));
    await using s = await indexedServer(tree.root, {});
    assert.deepEqual((await s.info()).readFromDisk, { folders: 3, linksOut: 0, specialFiles: 2 });
    assert.equal(await s.same({ ...ALL, path: "e" }), "index");
    const writer = new Deno.Command("sh", {
      args: ["-c", "echo hi > d/fifo"],
      cwd: tree.root,
      stdout: "null",
      stderr: "null",
    }).spawn();
    const finished = await Promise.race([
      writer.status.then(() => true),
      delay(1000).then(() => false),
    ]);
    if (!finished) writer.kill("SIGKILL");
    await writer.status;
    assert.equal(finished, false, "the writer found a reader");
    Deno.writeTextFileSync(tree.abs("d/b.txt"), "changed again");
    assert.equal(await s.same(ALL), "index");
    assert.equal((await s.info()).state, "ready");
  },
});

Deno.test({
  name: "never stale: a root folder moved away and made again is watched again",
  ignore: !posix,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 }, "d/b.txt": { mtime: T0 } });
    await using s = await indexedServer(tree.root);
    const old = `${tree.root}-old`;
    Deno.renameSync(tree.root, old);
    try {
      // The watch stays on the folder it started on (now `old`): the new root's files, and
      // then a change only an event would report, must still be seen.
      Deno.mkdirSync(tree.abs("d"), { recursive: true });
      Deno.writeTextFileSync(tree.abs("d/new.txt"), "new");
      assert.match(await s.same(ALL), /root folder was moved, removed or replaced|starting|built/);
      await until(async () => (await s.info()).state === "ready", "the new root's index");
      const t = new Date(T0 + DAY);
      Deno.utimeSync(tree.abs("d/new.txt"), t, t);
      assert.equal(await s.same(ALL), "index");
    } finally {
      Deno.removeSync(old, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "never stale: what no event reports (another hard link, touch -h, a link out with its folder time put back) is found",
  ignore: !posix,
  ...sanitize,
  async fn() {
    await using outside = await makeTree({ "target": { mtime: T0 } }, "fts-outside-");
    await using tree = await makeTree({ "d/a.txt": { mtime: T0, content: "a" } });
    Deno.linkSync(tree.abs("d/a.txt"), outside.abs("other")); // the same file, outside
    Deno.symlinkSync(outside.abs("target"), tree.abs("link"));
    await using s = await indexedServer(tree.root);
    assert.equal(await s.same(ALL), "index");
    // Through the other name: the root's watch sees nothing. touch -h: the runtime drops
    // the event (its path leads out of the root).
    const changedAt = Date.now();
    Deno.writeTextFileSync(outside.abs("other"), "changed through another name");
    sh(`touch -h -d 2024-01-01 ${tree.abs("link")}`, tree.root);
    // A new link to outside (its event dropped), its folder's time then put back as
    // `cp -a`, `rsync -a` and `tar` do.
    const folderTime = Deno.lstatSync(tree.abs("d")).mtime!;
    Deno.symlinkSync(outside.abs("target"), tree.abs("d/new-link"));
    Deno.utimeSync(tree.abs("d"), folderTime, folderTime);
    // Within the check's bound: once a whole round began after the change, the answer is
    // fresh, and from the index.
    await until(async () => {
      await s.matches(ALL);
      const since = (await s.info()).checkedWhole;
      return since !== undefined && Date.parse(since) > changedAt;
    }, "a whole round of the background check");
    assert.equal(await s.same(ALL), "index");
  },
});

Deno.test({
  name: "never stale: a tree that keeps changing while its index is built gets ready, never off",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    const spec: TreeSpec = {};
    for (let i = 0; i < 4000; i++) spec[`d${i % 40}/f${i}.txt`] = { mtime: T0 };
    await using tree = await makeTree(spec);
    await using _hogs = cpuHogs(); // events are late on a loaded machine: fills see changes
    // Another process makes and removes a file in the root and in one of its folders every
    // 2 ms for 4 s (slow enough that no event is lost, which would start the fill over): the
    // server starts once it has begun, and every fill meanwhile finds its folders changed.
    const writer = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `
        const root = ${JSON.stringify(tree.root)};
        const end = Date.now() + 4000;
        const pause = new Int32Array(new SharedArrayBuffer(4));
        for (let i = 0; Date.now() < end; i++) {
          Atomics.wait(pause, 0, 0, 2);
          const p = (k) => root + (k % 2 ? "/n" + k : "/d" + (k % 40) + "/n" + k) + ".txt";
          Deno.writeTextFileSync(p(i), "n");
          if (i >= 4) Deno.removeSync(p(i - 4));
        }`,
      ],
      stdout: "null",
      stderr: "inherit",
    }).spawn();
    await until(() => Deno.readDirSync(tree.root).some((e) => e.name.startsWith("n")), "it");
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    const states: string[] = [];
    const look = async () => {
      const info = await rootIndex(conn);
      states.push(`${info.state}: ${info.reason ?? ""}`);
      return info;
    };
    while (!(await Promise.race([writer.status, delay(50).then(() => null)]))) await look();
    await _hogs[Symbol.asyncDispose]();
    await until(async () => ["ready", "off"].includes((await look()).state), "the index");
    assert.ok(!states.some((s) => s.startsWith("off")), [...new Set(states)].join("\n"));
    assert.equal((await look()).state, "ready");
  },
});

Deno.test({
  name:
    "never stale: a file system mounted over a held folder, its time put back (tmpfs, bind), and unmounted, is seen",
  ignore: MOUNT_SKIP !== null || NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({
      "m/hidden.txt": { mtime: T0, content: "under the mount" },
      "n/hidden.txt": { mtime: T0, content: "under the bind" },
      "src/bound.txt": { mtime: T0 - DAY, content: "bound over n" },
      "a.txt": { mtime: T0 },
    });
    await using s = await indexedServer(tree.root);
    assert.equal(await s.same(ALL), "index");
    const putBack = (dir: string) => {
      const time = Deno.lstatSync(tree.abs(dir)).mtime!;
      return () => Deno.utimeSync(tree.abs(dir), time, time);
    };
    // A tmpfs over m: a file made in it, then the mount's root given the hidden folder's
    // time, as no event and no folder time says.
    const mTime = putBack("m");
    using _tmpfs = mountOver(tree.abs("m"));
    Deno.writeTextFileSync(tree.abs("m/mounted.txt"), "on the tmpfs");
    Deno.utimeSync(tree.abs("m/mounted.txt"), new Date(T0), new Date(T0));
    mTime();
    await s.same(ALL); // the same as a walk
    await until(async () => (await s.info()).state === "ready", "the index again");
    assert.equal(await s.same(ALL), "index");
    // A bind mount over n, its time put back too.
    const nTime = putBack("n");
    using bind = mountOver(tree.abs("n"), tree.abs("src"));
    nTime();
    await s.same(ALL);
    await until(async () => (await s.info()).state === "ready", "the index again");
    assert.equal(await s.same(ALL), "index");
    // Changes inside the mounts are seen from the index (the watch reaches into them).
    Deno.writeTextFileSync(tree.abs("m/mounted.txt"), "changed on the tmpfs");
    assert.equal(await s.same(RECENT), "index");
    // Unmounted: the hidden files again.
    bind[Symbol.dispose]();
    await s.same(ALL);
    await until(async () => (await s.info()).state === "ready", "the index again");
    assert.equal(await s.same(ALL), "index");
  },
});
