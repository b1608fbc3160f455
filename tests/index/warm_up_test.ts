/**
 * The answers nobody asked for (src/index/warm_up.ts): once a root is ready, its index
 * answers the newest 100 of the week up to its newest file and of the weeks before, in the
 * background, and they are not counted as answers; none starts while a call runs, and once
 * one is stopped by a call, the rest are dropped.
 */
import assert from "node:assert/strict";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { NO_INDEX, readyIndex } from "../helpers/live_index.ts";
import { seamIndexWorkerUrl } from "../helpers/seam.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { until } from "../helpers/until.ts";
import { WARM_UPS, warmUp, type WarmUpGate } from "../../src/index/warm_up.ts";
import { Turns } from "../../src/index/scan_turns.ts";
import { fillRequest } from "../../src/index/fill/fill_request.ts";
import type { SearchRequest } from "../../src/query/mod.ts";

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

Deno.test("warm up: none while a call runs; a call stops the one under way and drops the rest", async () => {
  const fill = fillRequest({ path: "/r", realPath: "/r" }, 1000);
  const gate = (): WarmUpGate => ({
    turns: new Turns(),
    ready: () => true,
    running: new Int32Array(new SharedArrayBuffer(4)),
  });
  const asked: SearchRequest[] = [];
  /** Answers each question, or (as the worker does once a call runs) rejects it. */
  const ask = (g: WarmUpGate, callAt: number) => (request: SearchRequest, leave: () => void) => {
    asked.push(request);
    if (asked.length === callAt) Atomics.store(g.running, 0, 1);
    leave();
    return Atomics.load(g.running, 0) > 0
      ? Promise.reject(new Error("stopped"))
      : Promise.resolve();
  };
  const quiet = gate();
  assert.equal(await warmUp(quiet, ask(quiet, 0), fill, T0), WARM_UPS, "no call: all of them");
  assert.equal(asked.length, WARM_UPS);

  asked.length = 0;
  const busy = gate();
  Atomics.store(busy.running, 0, 1);
  assert.equal(await warmUp(busy, ask(busy, 0), fill, T0), 0, "a call runs: none");
  assert.equal(asked.length, 0);

  asked.length = 0;
  const stopped = gate();
  assert.equal(await warmUp(stopped, ask(stopped, 2), fill, T0), 1, "the second stopped");
  assert.equal(asked.length, 2, "and the third never asked");
});
