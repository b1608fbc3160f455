/**
 * The answers nobody asked for (src/index/warm_up.ts): once a root is ready, its index
 * answers the newest 100 of the week up to its newest file and of the weeks before, in the
 * background, and they are not counted as answers.
 */
import assert from "node:assert/strict";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { NO_INDEX, readyIndex } from "../helpers/live_index.ts";
import { seamIndexWorkerUrl } from "../helpers/seam.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { until } from "../helpers/until.ts";
import { WARM_UPS } from "../../src/index/warm_up.ts";

Deno.test({
  name: "live index: once ready, the index answers weeks' newest 100 that nobody asked for",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    const newest = T0 + 30 * DAY;
    await using tree = await makeTree({
      "a/old.txt": { mtime: T0 },
      "b/new.txt": { mtime: newest },
    });
    const name = `scans-${crypto.randomUUID()}`;
    const channel = new BroadcastChannel(name);
    const scans: unknown[] = [];
    channel.onmessage = (event) => scans.push(event.data);
    const index = await readyIndex(tree.root, {
      indexWorkerUrl: seamIndexWorkerUrl({ scansChannel: name }),
    });
    try {
      await until(() => scans.length >= 1 + WARM_UPS, "the answers nobody asked for");
      // The fill (its newest file), then the week up to that file, and the weeks before.
      const week = (k: number) => ({
        order: "time_desc",
        limit: 100,
        from: newest - (k + 1) * 7 * DAY,
        to: newest - k * 7 * DAY + 1,
      });
      assert.deepEqual(scans, [
        { order: "time_desc", limit: 1, from: null, to: null },
        ...Array.from({ length: WARM_UPS }, (_, k) => week(k)),
      ]);
      assert.deepEqual(index.status()[0]!.answers, { index: 0, walk: 0 });
    } finally {
      index.close();
      channel.close();
    }
  },
});
