/**
 * The answer nobody asked for (src/index/warm_up.ts): once a root is ready, its index
 * answers a week's newest 100 up to its newest file, in the background, and it is not
 * counted as an answer.
 */
import assert from "node:assert/strict";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { NO_INDEX, readyIndex } from "../helpers/live_index.ts";
import { seamIndexWorkerUrl } from "../helpers/seam.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { until } from "../helpers/until.ts";

Deno.test({
  name: "live index: once ready, the index answers a week's newest 100 that nobody asked for",
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
      await until(() => scans.length >= 2, "the answer nobody asked for");
      // The fill (its newest file), then the week up to that file.
      assert.deepEqual(scans, [
        { order: "time_desc", limit: 1, from: null, to: null },
        { order: "time_desc", limit: 100, from: newest - 7 * DAY, to: newest + 1 },
      ]);
      assert.deepEqual(index.status()[0]!.answers, { index: 0, walk: 0 });
    } finally {
      index.close();
      channel.close();
    }
  },
});
