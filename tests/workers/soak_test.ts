/**
 * Soak (contract §19): 200 scans with stalls and cancellations interleaved, through the
 * real worker pool with a test worker whose file system hangs under one folder. Every
 * call settles, no worker is left behind (counted), and the heap does not grow.
 */
import assert from "node:assert/strict";
import { ToolError } from "../../src/errors.ts";
import type { SearchRequest } from "../../src/query/request.ts";
import { WorkerScanner } from "../../src/workers/scanner.ts";
import { seamWorkerUrl } from "../helpers/seam.ts";
import { searchRequest } from "../helpers/request.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

function request(root: string, path: string, order: SearchRequest["order"]): SearchRequest {
  return searchRequest(root, { startPath: path, order, limit: 10, limits: { scanTimeoutMs: 200 } });
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

Deno.test({
  name: "soak: 200 scans with stalls and cancellations; all settle, no worker leaks",
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 20; i++) {
      spec[`a/f${i}.txt`] = { mtime: T0 + i };
      spec[`z/f${i}.txt`] = { mtime: T0 + i };
    }
    await using tree = await makeTree(spec);
    const scanner = new WorkerScanner({
      readPaths: [tree.root],
      workerUrl: seamWorkerUrl({ stallOn: tree.abs("z"), progressEveryEntry: true }),
      graceMs: 100,
    });
    const gc = (globalThis as { gc?: () => void }).gc;
    const heap = () => (gc?.(), Deno.memoryUsage().heapUsed);
    const next = random(20261122);
    const outcomes = { answered: 0, partial: 0, timedOut: 0, cancelled: 0 };
    let heapBefore = 0;
    try {
      for (let batch = 0; batch < 25; batch++) {
        if (batch === 5) heapBefore = heap(); // after the pool and the code are warm
        await Promise.all(Array.from({ length: 8 }, async () => {
          const roll = next();
          const path = roll < 0.8 ? "a" : roll < 0.9 ? "" : "z";
          const order = next() < 0.5 ? "time_desc" : "path_asc";
          const controller = new AbortController();
          if (next() < 0.1) setTimeout(() => controller.abort("cancelled"), next() * 150);
          try {
            const outcome = await scanner.run(request(tree.root, path, order), {
              signal: controller.signal,
            });
            outcomes.answered++;
            if (outcome.hung === "now") outcomes.partial++;
          } catch (err) {
            if (err === "cancelled") outcomes.cancelled++;
            else if (err instanceof ToolError && err.code === "TimeoutExceeded") {
              outcomes.timedOut++;
            } else throw err;
          }
        }));
      }
      const total = outcomes.answered + outcomes.timedOut + outcomes.cancelled;
      assert.equal(total, 200, JSON.stringify(outcomes));
      for (const [kind, n] of Object.entries(outcomes)) assert.ok(n > 0, `no ${kind} calls`);
      const counts = scanner.counts();
      assert.equal(counts.busy, 0);
      assert.equal(counts.waiting, 0);
      assert.ok(counts.idle <= 4);
      assert.equal(counts.alive, counts.idle, "every other worker was terminated");
      if (gc) {
        const growth = heap() - heapBefore;
        assert.ok(growth < 16 * 1024 * 1024, `heap grew by ${growth} bytes`);
      }
    } finally {
      scanner.close();
    }
    assert.equal(scanner.counts().alive, 0);
  },
});
