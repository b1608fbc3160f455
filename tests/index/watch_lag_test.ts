/**
 * Never stale while the runtime's watcher is behind (contract §18, issue 40): the runtime's
 * `notify` backend reads the kernel's events in one run for as long as more keep coming,
 * and only when the run ends does it add the watches of the folders made or moved in
 * during it (a moved folder's events meanwhile name its old path, which the runtime drops).
 * Changes in such a folder before then have no event at all. The real server, its index
 * ready, lists the whole root (so its index holds them) right after folders are made and
 * moved in while other processes keep the watcher busy, and then those folders' files
 * change in ways that leave their folders' times alone; once all is quiet, its index must
 * give what a walk gives, and its journal must say they changed.
 */
import assert from "node:assert/strict";
import {
  busyWriters,
  cpuHogs,
  type IndexedServer,
  indexedServer,
} from "../helpers/indexed_server.ts";
import { allChangesOf } from "../helpers/changes.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { PROBE_PREFIX, type ProbeIo, WatchLag } from "../../src/index/watch/watch_lag.ts";
import { LaggingFolders } from "../../src/index/cache/lagging_folders.ts";

const posix = Deno.build.os !== "windows";
/** Folders made, and folders moved in, while the watcher is busy. */
const FOLDERS = 60;
const ALL = { timeField: "modified", limit: 500, includeDirectories: true };

Deno.test({
  name:
    "never stale: folders made or moved in while the runtime's watcher is behind, then changed again",
  ignore: !posix,
  ...sanitize,
  async fn() {
    const spec: TreeSpec = { "busy": { kind: "dir", mtime: T0 }, "to": { kind: "dir", mtime: T0 } };
    for (let k = 0; k < FOLDERS; k++) spec[`from${k}/g.txt`] = { mtime: T0, content: "g" };
    await using tree = await makeTree(spec);
    await using s = await indexedServer(tree.root);
    /** Each round's clock, from the answer that read its folders. */
    const clocks: string[] = [];
    {
      await using _busy = busyWriters(tree.abs("busy"));
      await using _hogs = cpuHogs();
      for (let k = 0; k < FOLDERS; k++) {
        Deno.mkdirSync(tree.abs(`new${k}`));
        Deno.writeTextFileSync(tree.abs(`new${k}/f.txt`), "f");
        Deno.renameSync(tree.abs(`from${k}`), tree.abs(`to/m${k}`));
        // The index learns both folders as they are now...
        const answer = await s.conn.search(ALL);
        clocks.push((answer.structuredContent as { clock: string }).clock);
        // ...and then their files change, which leaves the folders' times alone.
        const when = new Date(T0 - (k + 1) * DAY);
        for (const file of [`new${k}/f.txt`, `to/m${k}/g.txt`]) {
          Deno.writeTextFileSync(tree.abs(file), "changed ".repeat(k + 1));
          Deno.utimeSync(tree.abs(file), when, when);
        }
      }
    }
    // Quiet now. Asked folder by folder, so that no page is cut for its size (a walk's is not).
    await fromIndex(s, { ...ALL, path: "to" });
    for (let k = 0; k < FOLDERS; k++) await fromIndex(s, { ...ALL, path: `new${k}` });
    for (let k = 0; k < FOLDERS; k++) {
      const changes = await allChangesOf(s.conn, { since: clocks[k] });
      if (changes.freshInstance) continue; // an honest fresh start (the index was lost)
      const paths = new Set(changes.changes.map((c) => c.path));
      for (const file of [`new${k}/f.txt`, `to/m${k}/g.txt`]) {
        assert.ok(paths.has(file), `${file} changed after clock ${k}`);
      }
    }
  },
});

/** A probe's disk and timers, recorded; timers run when the test says. */
function fakeIo(fail = false) {
  const done: string[] = [];
  const timers: (() => void)[] = [];
  const io: ProbeIo = {
    makeFolder: (path) => {
      if (fail) throw new Deno.errors.NotFound("gone");
      done.push(`mkdir ${path}`);
    },
    writeFile: (path) => void done.push(`write ${path}`),
    removeFolder: (path) => void done.push(`rm ${path}`),
    later: (then) => {
      timers.push(then);
      return 0 as unknown as ReturnType<typeof setTimeout>;
    },
    cancel: () => void timers.splice(0),
  };
  return { io, done, timers };
}

const DIR = "/p";
const anchor = (wave: number, attempt = 1) => `${DIR}/${PROBE_PREFIX}${wave}-${attempt}`;

Deno.test("watch lag: folders behind share a wave until its probe's anchor is read", () => {
  const { io, done } = fakeIo();
  const lag = new WatchLag(DIR, "/", () => assert.fail("no failure"), io);
  assert.deepEqual(lag.read(["/r/a"]), { closed: false, caughtUp: null }); // nothing out yet
  assert.equal(lag.behind(), 1);
  assert.equal(lag.behind(), 1); // no second probe
  assert.deepEqual(done, [`mkdir ${anchor(1)}`]);
  assert.deepEqual(lag.read([anchor(1)]), { closed: true, caughtUp: null });
  assert.deepEqual(done.slice(1), [`write ${anchor(1)}/probe`]);
  assert.equal(lag.behind(), 2); // read after the anchor: the next wave
});

Deno.test("watch lag: the write in the anchor is tried again until its event is read", () => {
  const { io, done, timers } = fakeIo();
  const lag = new WatchLag(DIR, "/", () => assert.fail("no failure"), io);
  lag.behind();
  lag.read([anchor(1)]);
  timers.shift()!();
  timers.shift()!();
  assert.equal(done.filter((d) => d.startsWith("write")).length, 3);
  assert.equal(lag.behind(), 2); // owed: a probe follows this one
  assert.deepEqual(lag.read([`${anchor(1)}/probe`]), { closed: false, caughtUp: 1 });
  assert.equal(timers.length, 1, "no write after it: only the next anchor's wait");
  assert.deepEqual(done.slice(-2), [`rm ${anchor(1)}`, `mkdir ${anchor(2)}`]);
  // The old anchor's removal is not the new one's.
  assert.deepEqual(lag.read([`${anchor(1)}/probe`]), { closed: false, caughtUp: null });
  assert.deepEqual(lag.read([anchor(2)]), { closed: true, caughtUp: null });
  assert.deepEqual(lag.read([`${anchor(2)}/probe`]), { closed: false, caughtUp: 2 });
  lag.behind();
  assert.equal(done.at(-1), `mkdir ${anchor(3)}`);
});

Deno.test("watch lag: an anchor whose event does not come is made again under another name", () => {
  const { io, done, timers } = fakeIo();
  const lag = new WatchLag(DIR, "/", () => assert.fail("no failure"), io);
  assert.equal(lag.behind(), 1);
  timers.shift()!(); // no event for the first anchor
  assert.deepEqual(done, [`mkdir ${anchor(1)}`, `rm ${anchor(1)}`, `mkdir ${anchor(1, 2)}`]);
  assert.equal(lag.behind(), 1); // still the same wave
  assert.deepEqual(lag.read([anchor(1)]), { closed: false, caughtUp: null });
  assert.deepEqual(lag.read([anchor(1, 2)]), { closed: true, caughtUp: null });
  assert.deepEqual(lag.read([`${anchor(1, 2)}/probe`]), { closed: false, caughtUp: 1 });
});

Deno.test("watch lag: a probe that cannot be made says so", () => {
  const { io } = fakeIo(true);
  const failures: unknown[] = [];
  const lag = new WatchLag(DIR, "/", (err) => failures.push(err), io);
  lag.behind();
  assert.equal(failures.length, 1);
  assert.ok(failures[0] instanceof Deno.errors.NotFound);
});

Deno.test("lagging folders: a wave caught up lets go of its folders and the earlier ones", () => {
  const lagging = new LaggingFolders();
  lagging.add(["/r/a", "/r/b"], 1);
  lagging.add(["/r/c"], 2);
  lagging.add(["/r/a"], 3); // behind again, later
  assert.deepEqual(lagging.caughtUp(2).sort(), ["/r/b", "/r/c"]);
  assert.deepEqual([...lagging.folders()], ["/r/a"]);
  assert.deepEqual(lagging.caughtUp(3), ["/r/a"]);
  assert.deepEqual([...lagging.folders()], []);
});

/** Folders a build writes in, spread through the tree (a fill reads each at its own time). */
const PARENTS = 20;

Deno.test({
  name:
    "never stale: a build racing the fill, its new folders written again while the watcher is behind",
  ignore: !posix,
  ...sanitize,
  async fn() {
    const spec: TreeSpec = { "busy": { kind: "dir", mtime: T0 } };
    for (let i = 0; i < PARENTS * 100; i++) spec[`w${i % PARENTS}/src/s${i}.ts`] = { mtime: T0 };
    await using tree = await makeTree(spec);
    await using _busy = busyWriters(tree.abs("busy"));
    await using _hogs = cpuHogs();
    // The build: every 20 ms, in each parent, a folder made with three files, the files of the
    // two made before written again, and the one made eight rounds before removed (so that each
    // parent's answer is one page); from before the server starts until it is ready (or 20 s
    // after it started: then no fill got ready while the build ran, and the test shows less).
    // Two processes keep the runtime's watcher busy meanwhile, and stop with the build: a
    // flood the watcher cannot keep up with loses events (or may have: the count of cookies.ts),
    // and each loss has the index built again, so that it could not get ready while they ran.
    const stop = tree.abs("stop");
    const build = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `
        const [root, stop, parents] = ${JSON.stringify([tree.root, stop, PARENTS])};
        const pause = new Int32Array(new SharedArrayBuffer(4));
        const exists = (p) => { try { Deno.lstatSync(p); return true; } catch { return false; } };
        for (let k = 0; !exists(stop); k++) {
          for (let p = 0; p < parents; p++) {
            const folder = (n) => root + "/w" + p + "/b" + n;
            Deno.mkdirSync(folder(k));
            if (k >= 8) Deno.removeSync(folder(k - 8), { recursive: true });
            for (let j = Math.max(0, k - 2); j <= k; j++) {
              for (let i = 0; i < 3; i++) Deno.writeTextFileSync(folder(j) + "/o" + i + ".js", "v" + (k - j));
            }
          }
          Atomics.wait(pause, 0, 0, 20);
        }`,
      ],
      stdout: "null",
      stderr: "inherit",
    }).spawn();
    await until(() => exists(tree.abs("w0/b0/o2.js")), "the build");
    const stopping = setTimeout(() => {
      Deno.writeTextFileSync(stop, "");
      void _busy[Symbol.asyncDispose]();
    }, 20_000);
    await using s = await indexedServer(tree.root);
    clearTimeout(stopping);
    if (!exists(stop)) Deno.writeTextFileSync(stop, "");
    await build.status;
    await _busy[Symbol.asyncDispose]();
    await _hogs[Symbol.asyncDispose]();
    for (let i = 0; i < PARENTS; i++) await fromIndex(s, { ...ALL, path: `w${i}` });
  },
});

/**
 * Asks `args` until the index answers (a loss the watcher's count saw under the load is
 * filled again first), each answer the same as a walk's.
 */
async function fromIndex(s: IndexedServer, args: Record<string, unknown>): Promise<void> {
  let who = "";
  try {
    await until(async () => (who = await s.same(args)) === "index", JSON.stringify(args));
  } catch (err) {
    // Why the index never answered (the last walk's reason and the index's state), or why
    // its answer was stale: what the server logged (a loss, a rebuild).
    const logs = s.conn.stderrTail();
    throw new Error(
      `${(err as Error).message}; last: ${who}; ${JSON.stringify(await s.info())}\n${logs}`,
    );
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("watch lag: a watch's probe is named apart from one an earlier watch left", () => {
  // Found by a longer run of live_index_property_test.ts: a watch set up again could not make
  // its first anchor ("its probe could not be written (AlreadyExists)"): its predecessor, being
  // stopped, had made one of that name in the folder made afresh for it. The root was walked.
  const dir = Deno.makeTempDirSync();
  try {
    const failures: unknown[] = [];
    const earlier = new WatchLag(dir, "/", (err) => failures.push(err), undefined, "a1-");
    earlier.behind(); // its anchor made, its event never read
    earlier.close(); // stopped: the anchor stays
    const next = new WatchLag(dir, "/", (err) => failures.push(err), undefined, "b2-");
    next.behind();
    assert.deepEqual(failures, []);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      `${PROBE_PREFIX}a1-1-1`,
      `${PROBE_PREFIX}b2-1-1`,
    ]);
    next.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
