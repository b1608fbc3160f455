/**
 * The scan worker's entry module: it answers scans with the real file system, with
 * the Deno permissions its creator narrowed it to (contract §13, layer 2).
 *
 * Like `main.ts` for the process, this module acts when loaded: it is only ever
 * loaded as a worker.
 *
 * @module
 */
import { denoFs, systemClock } from "../ports/mod.ts";
import { strictGuard } from "../security/mod.ts";
import { answerScans, type WorkerScope } from "./worker_protocol.ts";

answerScans(self as unknown as WorkerScope, {
  fs: denoFs,
  clock: systemClock,
  guard: strictGuard,
});
