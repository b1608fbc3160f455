/**
 * Indexed calls keep the promises a walk keeps (contract §12, §18, §19): an answer waits
 * for the changes the watcher has read; a call queued behind a hung indexed scan answers
 * within its own time; a cancelled call, queued or running, leaves the index as it was;
 * a call whose root's watch breaks under it is answered by a walk.
 */
import assert from "node:assert/strict";
import { allPages, engine } from "../helpers/engine.ts";
import { fakeWatch, watchRead } from "../helpers/fake_watch.ts";
import { seamIndexWorkerUrl, type TestSeam } from "../helpers/seam.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { liveIndex, NO_INDEX } from "../helpers/live_index.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

interface Setup {
  spec?: TreeSpec;
  watch?: URL;
  /** The index worker reads the disk through this seam (paths relative to the root). */
  seam?: (abs: (rel: string) => string) => TestSeam;
  env?: Record<string, string>;
}

async function setup(options: Setup) {
  const spec: TreeSpec = options.spec ?? {};
  for (let i = 0; i < 6; i++) spec[`d/f${i}.txt`] = { mtime: T0 + i * DAY };
  const tree = await makeTree(spec);
  const index = liveIndex(tree.root, {
    ...(options.watch ? { watchWorkerUrl: options.watch } : {}),
    // The seam counts the index worker's reads: no fill helper reads in its stead, and no
    // answer nobody asked for (warm_up.ts) reads between the fill and the test's call.
    ...(options.seam
      ? {
        indexWorkerUrl: seamIndexWorkerUrl(options.seam(tree.abs)),
        fillWorkerUrl: new URL("../helpers/idle_fill_worker.ts", import.meta.url),
        warmUp: false,
      }
      : {}),
  });
  const env = options.env ?? {};
  const indexed = engine(tree.root, { scanner: index, env });
  const fresh = engine(tree.root, { env });
  const status = () => index.status()[0]!;
  /** Where the index stands, without who answered. */
  const state = () => ({ state: status().state, entries: status().entries });
  const dispose = async () => {
    index.close();
    await tree.dispose();
  };
  return { tree, index, indexed, fresh, status, state, [Symbol.asyncDispose]: dispose };
}

/** Starts the index with a call (a walk), and waits until it is built. */
async function watched(t: Awaited<ReturnType<typeof setup>>): Promise<void> {
  await t.indexed.search({ timeField: "modified" });
  await until(() => t.status().state === "ready", "the index");
}

/** Starts the watch, then fills the index with a whole-root call. */
async function fill(t: Awaited<ReturnType<typeof setup>>): Promise<number> {
  await watched(t);
  await t.indexed.search({ timeField: "modified" });
  assert.ok(t.status().entries > 0);
  return t.status().entries;
}

const NEWEST = { timeField: "modified", limit: 1 };

Deno.test({
  name: "live index: an answer waits for the changes the watch has read (the barrier)",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    // The watch passes changes on only when a barrier asks for them before an answer.
    await using t = await setup({ watch: fakeWatch("hold") });
    await fill(t);
    const read = watchRead();
    // A new time on a file changes nothing in its folder: only its event says so.
    const t10 = new Date(T0 + 10 * DAY);
    await Deno.utime(t.tree.abs("d/f0.txt"), t10, t10);
    // Once the watch has read it (it holds it until a barrier), the answer must see it.
    await until(() => read.has("f0.txt"), "the watch to read the change").finally(read.close);
    const { index } = t.status().answers;
    const newest = await t.indexed.search(NEWEST);
    assert.deepEqual(newest.matches.map((m) => m.path), ["d/f0.txt"]);
    assert.deepEqual(newest.matches, (await t.fresh.search(NEWEST)).matches);
    assert.equal(t.status().answers.index, index + 1, "the index answered");
  },
});

Deno.test({
  name: "live index: a call queued behind a hung indexed scan answers within its own time",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    const timeoutMs = 2000;
    await using t = await setup({
      spec: { "stuck/x.txt": { mtime: T0 } },
      // The index's first look at this folder after its fill (3 looks) never returns.
      seam: (abs) => ({ stallOn: abs("stuck"), stallIn: "lstat", stallFrom: 4 }),
      env: { SCAN_TIMEOUT_MS: String(timeoutMs) },
    });
    await watched(t);
    // On the index: hangs, and is answered at its own hard deadline, one way or the other.
    const hung = t.indexed.search({ timeField: "modified" }).catch(() => null);
    const queued = await t.indexed.search({ timeField: "modified" });
    // By the server's own clock, from when the call was made.
    const took = queued.stats.elapsedMs;
    assert.ok(took < timeoutMs + 2000, `the queued call took ${took} ms`);
    assert.equal(queued.stats.truncated, false);
    assert.deepEqual(queued.matches, (await t.fresh.search({ timeField: "modified" })).matches);
    await hung;
  },
});

Deno.test({
  name: "live index: a cancelled call, queued or running, leaves the index as it was",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using t = await setup({
      spec: { "slow/x.txt": { mtime: T0 } },
      // Every indexed call checks this folder on disk, which takes 700 ms: a slow disk.
      seam: (abs) => ({ stallOn: abs("slow"), stallIn: "lstat", stallMs: 700 }),
    });
    const entries = await fill(t);
    // Queued: cancelled while the call ahead of it runs.
    const ahead = t.indexed.search({ timeField: "modified" });
    const cancel = new AbortController();
    const queued = t.indexed.search({ timeField: "modified" }, cancel.signal);
    setTimeout(() => cancel.abort(new Error("cancelled by the test")), 100);
    await assert.rejects(queued, /cancelled by the test/);
    assert.deepEqual(t.state(), { state: "ready", entries });
    await ahead;
    assert.deepEqual(t.state(), { state: "ready", entries });
    // Running: cancelled while it reads the slow folder.
    const stop = new AbortController();
    const running = t.indexed.search({ timeField: "modified" }, stop.signal);
    setTimeout(() => stop.abort(new Error("cancelled by the test")), 100);
    await assert.rejects(running, /cancelled by the test/);
    assert.deepEqual(t.state(), { state: "ready", entries });
    const next = await t.indexed.search({ timeField: "modified" }); // after the cancelled scan
    assert.deepEqual(t.state(), { state: "ready", entries });
    assert.deepEqual(next.matches, (await t.fresh.search({ timeField: "modified" })).matches);
  },
});

Deno.test({
  name: "live index: a call whose root's watch breaks under it is answered by a walk",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using t = await setup({
      spec: { "stuck/x.txt": { mtime: T0 } },
      // The watch breaks 300 ms after the first indexed call has flushed it.
      watch: fakeWatch("error", 1, 300),
      // ... after the fill's 3 looks at the folder.
      seam: (abs) => ({ stallOn: abs("stuck"), stallIn: "lstat", stallFrom: 4 }),
      env: { SCAN_TIMEOUT_MS: "60000" },
    });
    await watched(t);
    // The index worker gets stuck in its first read of the folder, and would stay so
    // until the call's hard deadline, a minute away.
    const out = await allPages(t.indexed, { timeField: "modified", limit: 100 });
    assert.equal(out.length, 1);
    assert.equal(out[0]!.stats.truncated, false);
    assert.deepEqual(out[0]!.matches, (await t.fresh.search({ timeField: "modified" })).matches);
    assert.equal(t.status().state, "off");
    assert.equal(t.status().lastWalk, "its index went away during the call");
  },
});
