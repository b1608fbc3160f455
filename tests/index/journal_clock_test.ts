/**
 * An answer's clock (contract §24) while the runtime's watcher is behind a folder made in
 * the root (tests/helpers/lagging_watch_worker.ts: no event names what is in it, and the
 * lag probe cannot end, as on a busy machine before the runtime adds its watch): a file
 * written there after an earlier answer read the folder, and before the clock, is known as
 * of that clock, so its removal after it is reported. The live index with the real watch
 * worker and index worker.
 */
import assert from "node:assert/strict";
import { fillRequest } from "../../src/index/fill/fill_request.ts";
import { NO_INDEX, readyIndex } from "../helpers/live_index.ts";
import { searchRequest } from "../helpers/request.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { catchUp, laggingWatch } from "../helpers/fake_watch.ts";

/** The lag it stands in for is Linux's (watch_lag.ts): the runtime's inotify backend. */
const linux = Deno.build.os === "linux";
if (!linux) console.log("journal clock test skipped: the watcher's lag it plays is Linux's");

Deno.test({
  name: "journal clock: a file written where the watcher is behind, then removed, is removed " +
    "since an answer's clock given in between",
  ignore: NO_INDEX || !linux,
  async fn() {
    await using tree = await makeTree({ "a.js": { mtime: T0 }, "other/b.js": { mtime: T0 } });
    const root = { path: tree.root, realPath: tree.root };
    const index = await readyIndex(tree.root, {
      watchWorkerUrl: laggingWatch("lib"),
      changes: { maxEntries: 1_000, maxAgeMs: 1e9 },
      warmUp: false,
    });
    try {
      // Answers that read only `other`: nothing of `p` is read by a scan.
      const answer = async () => {
        const outcome = await index.run(searchRequest(tree.root, { startPath: "other" }));
        const { index: byIndex, walk } = index.status()[0]!.answers;
        assert.ok(walk === 0 && byIndex > 0, "answered by the index");
        return outcome;
      };
      Deno.mkdirSync(tree.abs("p/lib"), { recursive: true });
      Deno.writeFileSync(tree.abs("p/lib/f0.js"), new Uint8Array(1));
      await answer(); // its barrier: `p` made is applied, read below (lib, f0)
      // No event: the watcher is behind `lib`; `p` is still behind when the clock is given.
      Deno.writeFileSync(tree.abs("p/lib/f1.js"), new Uint8Array(1));
      await answer();
      const clock = index.journalOf(tree.root)!.position;
      Deno.removeSync(tree.abs("p"), { recursive: true });
      const got = await index.askJournal(tree.root, {
        since: { position: clock },
        until: null,
        startPath: "",
        filter: { ...fillRequest(root, 1_000).filter, includeDirectories: true },
        expand: true,
        after: null,
        limit: 100,
      });
      assert.ok(typeof got !== "string" && !("fresh" in got.answer), JSON.stringify(got));
      assert.deepEqual(got.answer.changes.map((c) => [c.path, c.change]), [
        ["p", "removed"],
        ["p/lib", "removed"],
        ["p/lib/f0.js", "removed"],
        ["p/lib/f1.js", "removed"],
      ]);
    } finally {
      catchUp();
      index.close();
    }
  },
});
