/**
 * A fill helper that feeds nothing (in place of src/index/fill/fill_worker.ts): the index worker
 * then reads every entry from disk itself, so that tests counting its reads through a seam
 * count the same on every run. Test-only.
 *
 * @module
 */
import { ScanCancelled } from "../../src/walk/mod.ts";
import { answerScan, type ScanTask, type WorkerScope } from "../../src/workers/mod.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs } from "../../src/ports/fs.ts";
import { strictGuard } from "../../src/security/guard.ts";

const scope = self as unknown as Omit<WorkerScope, "onmessage"> & {
  onmessage: ((event: MessageEvent<ScanTask | { ring: SharedArrayBuffer }>) => void) | null;
};
const tools = { fs: denoFs, clock: systemClock, guard: strictGuard };

scope.onmessage = (event) => {
  const message = event.data;
  if ("ring" in message) return;
  void answerScan(scope, tools, message, undefined, () => Promise.reject(new ScanCancelled()));
};
