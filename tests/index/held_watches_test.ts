/**
 * src/index/watch/held_watches.ts with the real watcher. Deno 2.9's watcher names each kernel
 * watch by the paths it walked to it, and removing one path removes the watch: a link inside
 * the root to a folder inside it (followed by the walk that sets the watch up) is such a
 * second path, so removing the link leaves its folder with no watch, deterministically.
 * (A folder moved into a folder not watched yet, the case the index asks a hold for, is the
 * same loss reached by a race: bench/watch_loss.ts.) A held call on the folder has the
 * runtime watch it again; a path held already is walked again through the folder above it,
 * and when none is left below its part, or past the bound, the watch is to be set up again;
 * a folder no longer there is gone.
 */
import assert from "node:assert/strict";
import { makeTree, T0 } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { HeldWatches, MOST_HELD } from "../../src/index/watch/held_watches.ts";
import { rootWatching } from "../helpers/root_watching.ts";
import type { Change, LagNews } from "../../src/index/watch/watch_messages.ts";

const linux = Deno.build.os === "linux";
if (!linux) console.log("held watches tests skipped: the lost watch is inotify's (Linux)");

Deno.test({
  name: "held watches: one call holds them all, a path held again is let go and walked anew",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "d/e/f/a.txt": { mtime: T0 }, "g/b.txt": { mtime: T0 } });
    const opened: string[][] = [];
    const held = new HeldWatches(tree.root, "/", (paths, root) => {
      opened.push(paths);
      return Deno.watchFs(paths, { recursive: true, ignore: [root] });
    });
    const [f, g] = [tree.abs("d/e/f"), tree.abs("g")];
    try {
      assert.equal(held.hold(f, tree.root), "held");
      assert.equal(held.hold(tree.abs("gone"), tree.root), "gone");
      assert.equal(held.hold(g, tree.root), "held");
      assert.deepEqual(opened, [[f], [f, g]], "each new call holds them all");
      opened.length = 0;
      assert.equal(held.hold(f, tree.root), "held");
      assert.deepEqual(opened, [[g], [g, f]], "the others first, then it anew");
      assert.equal(held.hold(f, f), "again", "a part is the root's watch's to walk");
      assert.equal(held.size, 2);
    } finally {
      held.close();
    }
  },
});

Deno.test({
  name: "held watches: past the bound, the root's watch is set up again",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "d/a.txt": { mtime: T0 } });
    for (let i = 0; i <= MOST_HELD; i++) Deno.mkdirSync(tree.abs(`d/${i}`));
    const held = new HeldWatches(tree.root, "/");
    try {
      for (let i = 0; i < MOST_HELD; i++) {
        assert.equal(held.hold(tree.abs(`d/${i}`), tree.root), "held");
      }
      assert.equal(held.hold(tree.abs(`d/${MOST_HELD}`), tree.root), "again");
    } finally {
      held.close();
    }
  },
});

Deno.test({
  name: "held watches: a folder the runtime stopped watching raises events again once held",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "d/a.txt": { mtime: T0 }, "e/b.txt": { mtime: T0 } });
    Deno.symlinkSync(tree.abs("d"), tree.abs("link"));
    const watcher = Deno.watchFs(tree.root, { recursive: true });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of watcher) seen.push(...event.paths);
    })();
    const held = new HeldWatches(tree.root, "/");
    let marks = 0;
    // One watcher's events come in the order they happened: once a file written in `e` is
    // reported, so is everything written before it.
    const reported = async (path: string) => {
      const mark = tree.abs(`e/mark-${marks++}`);
      Deno.writeTextFileSync(mark, "");
      await until(() => seen.includes(mark), "the mark's event");
      return seen.some((p) => p.endsWith(path));
    };
    try {
      Deno.removeSync(tree.abs("link"));
      // The runtime drops the watch once it has read the removal: a file written in the folder
      // before that is reported, one written after is not (its event may name either path).
      let lost = false;
      for (let n = 0; n < 100 && !lost; n++) {
        Deno.writeTextFileSync(tree.abs(`d/lost-${n}.txt`), "x");
        lost = !(await reported(`/lost-${n}.txt`));
      }
      assert.ok(lost, "the runtime lost the folder's watch");
      assert.equal(held.hold(tree.abs("d"), tree.root), "held");
      Deno.writeTextFileSync(tree.abs("d/again.txt"), "x");
      assert.ok(await reported("/d/again.txt"), "the held folder raises events again");

      // Lost again: a folder holding a link to it moved in (the runtime walks it and follows
      // the link), then the link removed. Held again, the path is walked anew.
      const outside = await Deno.makeTempDir({ prefix: "fts-held-" });
      Deno.symlinkSync(tree.abs("d"), `${outside}/link`);
      Deno.renameSync(outside, tree.abs("x"));
      assert.ok(await reported("/x"), "moved in");
      Deno.removeSync(tree.abs("x/link"));
      lost = false;
      for (let n = 0; n < 100 && !lost; n++) {
        Deno.writeTextFileSync(tree.abs(`d/lost-again-${n}.txt`), "x");
        lost = !(await reported(`/lost-again-${n}.txt`));
      }
      assert.ok(lost, "the runtime lost the folder's watch again");
      assert.equal(held.hold(tree.abs("d"), tree.root), "held");
      Deno.writeTextFileSync(tree.abs("d/again-2.txt"), "x");
      assert.ok(await reported("/d/again-2.txt"), "held anew, it raises events again");
    } finally {
      held.close();
      watcher.close();
      await reading;
    }
  },
});

/** A root's watch worker on `root`, with what it reported. */
async function watching(root: string, cookies: string) {
  const seen: string[] = [];
  const held: string[] = [];
  const watch = await rootWatching(root, cookies, {}, {
    changes: (changes: Change[], _rescan: boolean, lag: LagNews) => {
      for (const change of changes) seen.push(...change.paths);
      held.push(...lag.held ?? []);
    },
    lost: (reason) => assert.fail(`the watch was lost: ${reason}`),
  });
  // Every event before a barrier's cookie is reported before the barrier passes.
  const passed = async () => assert.ok(await watch.barrier(10_000), "the barrier passed");
  return { watch, seen, held, passed };
}

Deno.test({
  name: "held watches: a link removed inside the root leaves the folder it led to watched",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "d/a.txt": { mtime: T0 }, "e/b.txt": { mtime: T0 } });
    Deno.symlinkSync(tree.abs("d"), tree.abs("link"));
    const cookies = await Deno.makeTempDir({ prefix: "fts-cookies-" });
    const { watch, seen, held, passed } = await watching(tree.root, cookies);
    try {
      Deno.removeSync(tree.abs("link"));
      await passed(); // the worker has read the removal, and held the folder
      assert.deepEqual(held, [tree.abs("d")], "the folder the link led to, held");
      // Written one by one, each reported (without the hold, those after the runtime read
      // the removal were not: the test above).
      for (let n = 0; n < 20; n++) {
        Deno.writeTextFileSync(tree.abs(`d/kept-${n}.txt`), "x");
        await passed();
        assert.ok(seen.some((p) => p.endsWith(`/kept-${n}.txt`)), `kept-${n}.txt reported`);
      }
    } finally {
      watch.close();
      await Deno.remove(cookies, { recursive: true });
    }
  },
});

Deno.test({
  name: "held watches: folders the index asks for are held, and said held with the changes",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "d/e/a.txt": { mtime: T0 }, "f/b.txt": { mtime: T0 } });
    const cookies = await Deno.makeTempDir({ prefix: "fts-cookies-" });
    const { watch, seen, held, passed } = await watching(tree.root, cookies);
    try {
      watch.hold([
        { from: tree.abs("x/e"), to: tree.abs("d/e") },
        { from: tree.abs("x/gone"), to: tree.abs("gone") },
      ]);
      await until(() => held.length > 0, "the folders held");
      assert.deepEqual(held.sort(), [tree.abs("d/e"), tree.abs("gone")]);
      Deno.writeTextFileSync(tree.abs("d/e/new.txt"), "x");
      await passed();
      assert.ok(seen.includes(tree.abs("d/e/new.txt")), "still reported by the root's watch");
    } finally {
      watch.close();
      await Deno.remove(cookies, { recursive: true });
    }
  },
});
