/**
 * A scan task given up (src/workers/worker_task.ts): its worker is stopped, and its scan is
 * told to stop too. Deno's `terminate()` ends a busy worker only at its next turn of its
 * event loop (or kills its isolate 2 s later), so before, a cancelled walk, and each walk a
 * joint walk started again with a later call, ran on to its end beside what followed:
 * on 500k, two walks cancelled at 150 ms then one whole took 9.5 s of CPU instead of 3.8.
 */
import assert from "node:assert/strict";
import { runTask } from "../../src/workers/worker_task.ts";
import { shares } from "../../src/workers/scanner.ts";
import type { ScanTask } from "../../src/workers/worker_protocol.ts";
import { searchRequest } from "../helpers/request.ts";

/** A worker stand-in that keeps the task it was given and never answers. */
function silentWorker(): { worker: Worker; task: () => ScanTask } {
  let given: ScanTask | null = null;
  const worker = {
    onmessage: null,
    onerror: null,
    postMessage(task: ScanTask) {
      given = task;
    },
    terminate() {},
  };
  return { worker: worker as unknown as Worker, task: () => given! };
}

for (const how of ["cancelled", "abandoned"] as const) {
  Deno.test(`a scan task ${how} stops its worker and tells its scan to stop`, async () => {
    const { worker, task } = silentWorker();
    const control = new AbortController();
    let kept: boolean | null = null;
    const running = runTask(worker, searchRequest("/root"), {
      plan: { share: shares(1)[0]!, keepAll: 0 },
      signal: control.signal,
      graceMs: 1000,
      settle: (keep) => (kept = keep),
    });
    const cancel = task().cancel!;
    assert.equal(Atomics.load(cancel, 0), 0, "a scan under way");
    if (how === "cancelled") control.abort();
    else running.abandon();
    await assert.rejects(running.outcome);
    assert.equal(kept, false, "the worker is stopped");
    assert.equal(Atomics.load(cancel, 0), 1, "and its scan told to stop at its next entry");
  });
}
