/**
 * The live index never answers stale (contract §18): a queue overflow (`rescan`), a
 * watcher that breaks, and a watch that cannot be set up each send the root back to
 * fresh reading, and the next answer is exact. The watch worker here reports no changes
 * at all, so without the fallback the answer after a change would be stale.
 */
import assert from "node:assert/strict";
import type { IndexStatus } from "../../src/index/live_index_options.ts";
import { allPages, engine } from "../helpers/engine.ts";
import { fakeWatch, watchSetUps } from "../helpers/fake_watch.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { liveIndex, NO_INDEX } from "../helpers/live_index.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { seamIndexWorkerUrl } from "../helpers/seam.ts";
import { FILL_ATTEMPTS } from "../../src/index/fill/mod.ts";

async function setup(mode: string, at: number) {
  const spec: Record<string, { mtime: number }> = {};
  for (let i = 0; i < 6; i++) spec[`d/f${i}.txt`] = { mtime: T0 + i * DAY };
  const tree = await makeTree(spec);
  const logs: string[] = [];
  const index = liveIndex(tree.root, {
    log: (_level, message) => logs.push(message),
    watchWorkerUrl: fakeWatch(mode, at),
    retryMs: 100,
  });
  const indexed = engine(tree.root, { scanner: index });
  const fresh = engine(tree.root);
  const paths = async (e: typeof indexed) =>
    (await allPages(e, { timeField: "modified", limit: 4 })).flatMap((p) =>
      p.matches.map((m) => `${m.path}@${m.modifiedAt}`)
    );
  const status = (): IndexStatus => index.status()[0]!;
  return { tree, index, indexed, fresh, paths, status, logs };
}

/** A change the fake watcher does not report. */
async function change(root: string): Promise<void> {
  await Deno.writeTextFile(`${root}/d/new.txt`, "new");
  const t = new Date(T0 + 10 * DAY);
  await Deno.utime(`${root}/d/f0.txt`, t, t);
}

for (const mode of ["rescan", "error"] as const) {
  Deno.test({
    name: `live index: after a ${
      mode === "rescan" ? "queue overflow" : "watcher error"
    } the next answer is exact`,
    ignore: NO_INDEX,
    ...sanitize,
    async fn() {
      // Ping 1 and 2 are the two calls that fill and use the index; the fault comes with ping 3.
      const t = await setup(mode, 3);
      const setUps = watchSetUps();
      try {
        await t.indexed.search({ timeField: "modified" }); // one page: starts the watch
        await until(() => t.status().state === "ready", "the watch");
        await t.paths(t.indexed); // fills the index (ping 1 and 2)
        assert.ok(t.status().entries > 0);
        // Both pages came from the index (the first call walked: the watch was starting).
        assert.deepEqual(t.status().answers, { index: 2, walk: 1 });
        await change(t.tree.root);
        assert.deepEqual(await t.paths(t.indexed), await t.paths(t.fresh));
        // The fault came with the next call: it walked, and said why.
        assert.equal(t.status().answers.index, 2);
        assert.match(
          t.status().lastWalk!,
          mode === "rescan" ? /events were lost/ : /the watch broke: simulated/,
        );
        if (mode === "error") {
          assert.equal(t.status().state, "off");
          assert.match(t.status().reason!, /the watch broke: simulated/);
          assert.ok(t.logs.some((l) => /is scanned without an index: the watch broke/.test(l)));
          // It is tried again later.
          await until(() => t.status().state === "ready", "the watch to come back");
        } else {
          // It forgets everything, and its watch is set up again (the runtime may have missed a
          // folder made meanwhile, and so never watch it), then its index is built again.
          assert.ok(t.logs.some((l) => /changed faster than its events could be read/.test(l)));
          await until(() => setUps.count() === 2, "the watch set up again");
          await until(() => t.status().state === "ready", "the index built again");
          assert.equal(t.logs.filter((l) => /is ready: /.test(l)).length, 2);
          assert.equal(setUps.count(), 2);
        }
      } finally {
        setUps.close();
        t.index.close();
        await t.tree.dispose();
      }
    },
  });
}

Deno.test({
  name: "live index: a watch that cannot be set up leaves the root to fresh walks",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    const t = await setup("fail", 1);
    try {
      await t.paths(t.indexed);
      await until(() => t.status().state === "off", "the watch to fail");
      assert.match(t.status().reason!, /the watch failed: the system's limit on file watches/);
      await change(t.tree.root);
      assert.deepEqual(await t.paths(t.indexed), await t.paths(t.fresh));
    } finally {
      t.index.close();
      await t.tree.dispose();
    }
  },
});

Deno.test({
  name: "live index: past INDEX_MAX_ENTRIES a root is walked as with the index off",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 20; i++) spec[`f${i}.txt`] = { mtime: T0 + i };
    await using tree = await makeTree(spec);
    const index = liveIndex(tree.root, { maxEntries: 10 });
    try {
      const indexed = engine(tree.root, { scanner: index });
      await indexed.search({ timeField: "modified" });
      // Its fill passes the cap: the root goes back to walks, and stays there.
      await until(() => index.status()[0]!.state === "off", "the index to stop");
      const out = await indexed.search({ timeField: "modified", limit: 1000 });
      assert.equal(out.matches.length, 20);
      assert.equal(index.status()[0]!.state, "off");
      assert.match(index.status()[0]!.reason!, /more than 10 entries \(INDEX_MAX_ENTRIES\)/);
      await Deno.writeTextFile(tree.abs("late.txt"), "late");
      const again = await indexed.search({ timeField: "modified", limit: 1000 });
      assert.equal(again.matches.length, 21);
    } finally {
      index.close();
    }
  },
});

Deno.test({
  name: "live index: a fill the tree keeps changing under is tried again until the change ends",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "d/a.txt": { mtime: T0 }, "b.txt": { mtime: T0 - DAY } });
    // Folder d changes under its first 24 listings: at three listings a fill, 8 fills fail
    // in a row (more than FILL_ATTEMPTS), as under a long build; then it holds still.
    assert.ok(24 / 3 > FILL_ATTEMPTS);
    const seam = { churnOn: tree.abs("d"), churnReads: 24 };
    const states = new Set<string>();
    const index = liveIndex(tree.root, {
      eager: true,
      refillMs: 1,
      indexWorkerUrl: seamIndexWorkerUrl(seam),
      fillWorkerUrl: new URL("../helpers/idle_fill_worker.ts", import.meta.url),
    });
    try {
      const status = () => index.status()[0]!;
      await until(() => {
        const { state, reason } = status();
        states.add(`${state}: ${reason ?? ""}`);
        return state === "ready" || state === "off";
      }, "the fill to end");
      assert.equal(status().state, "ready", [...states].join("\n"));
      assert.ok([...states].some((s) => /tried again \(the tree kept changing/.test(s)));
    } finally {
      index.close();
    }
  },
});
