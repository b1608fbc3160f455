/**
 * src/index/watch/root_watch.ts with the real watcher: a watch closed after a FIFO appeared
 * in a folder it watches is handed to the server's stalls (stalls.ts), whether or not a
 * barrier was asked for since: the runtime's watcher opens the FIFO to compare it and
 * blocks there for good, with its thread and inotify instance. Found when the index read
 * such a FIFO (an answer nobody asked for, right after a rebuild) before any call's barrier
 * stalled: the watch was closed as if nothing held it, and 12 FIFOs made in turn left 10
 * inotify instances where at most 9 (8 stalled and the watch) may be. A watch that only
 * saw a FIFO but still reads events passes the barrier it is asked at close, and is let go.
 * The cookie a blocked one writes at close stays in the private folder its successor uses:
 * each watch's cookie names are its own, so the successor's never meet it (they did, under a
 * loaded suite: "its barrier cookie could not be written (AlreadyExists)", the watch broken).
 */
import assert from "node:assert/strict";
import { makeTree, T0 } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { rootWatching } from "../helpers/root_watching.ts";
import { Stalls } from "../../src/index/watch/stalls.ts";

const linux = Deno.build.os === "linux";
if (!linux) console.log("root watch FIFO test skipped: mkfifo is Linux's here");

const watching = (root: string, cookies: string, stalls: Stalls) =>
  rootWatching(root, cookies, { stalls, graceMs: 1000 });

Deno.test({
  name: "root watch: closed after a FIFO appeared, it is held as stalled until it proves it is not",
  ignore: !linux,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "d/a.txt": { mtime: T0 }, "e/b.txt": { mtime: T0 } });
    const cookies = await Deno.makeTempDir({ prefix: "fts-cookies-" });
    const stalls = new Stalls();
    const fifo = tree.abs("d/control.pipe");
    try {
      // Only seen, the watcher not blocked: asked a barrier at close, it passes, let go.
      const free = await watching(tree.root, cookies, stalls);
      free.specialSeen();
      free.close();
      assert.equal(stalls.held, 1, "held until its barrier passes");
      await until(() => stalls.held === 0, "the free watch let go");
      assert.equal(stalls.stuck, 0);

      // A FIFO made where it watches: the watcher opens it and blocks; the index sees it.
      const blocked = await watching(tree.root, cookies, stalls);
      new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
      blocked.specialSeen();
      blocked.close();
      assert.equal(stalls.held, 1, "a watch that may be blocked on the FIFO is held");
      await until(() => stalls.stuck === 1, "its grace over, it counts as stuck");

      // Its cookie is left where its successor writes its own: they pass all the same.
      await until(() => [...Deno.readDirSync(cookies)].length > 0, "the blocked one's cookie");
      Deno.removeSync(fifo); // the successor's plan would leave the folder out
      const next = await watching(tree.root, cookies, stalls);
      try {
        for (let i = 0; i < 3; i++) assert.equal(await next.barrier(10_000), true, `barrier ${i}`);
      } finally {
        next.close();
      }
    } finally {
      // A writer lets the blocked open go (if it is still blocked), then the FIFO goes.
      await new Deno.Command("timeout", { args: ["5", "sh", "-c", `exec 3>"${fifo}"`] }).output();
      Deno.removeSync(fifo, { recursive: true });
      Deno.removeSync(cookies, { recursive: true });
    }
  },
});
