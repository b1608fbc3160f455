/**
 * Running scans on workers: sandboxed Web Workers (contract §13, layer 2), the pool and
 * its slots, one task per worker with its hard deadline and cancellation (§12, §19), the
 * messages, shares merged, and the memory of roots whose scan hung. Whatever else runs a
 * worker (the live index) builds on `spawnSandboxed`, `runTask` and `answerScan`.
 *
 * May import: walk, query, security, ports, config.ts, errors.ts, worker_modules.ts.
 *
 * @module
 */
export { HungRoots, type HungRootsOptions } from "./hung_roots.ts";
export {
  type RunOptions,
  type Scanner,
  shares,
  type WalkCost,
  WalkCosts,
  WorkerScanner,
  type WorkerScannerOptions,
} from "./scanner.ts";
export { type PoolCounts, spawnLinkWorker, spawnSandboxed } from "./worker_pool.ts";
export {
  answerScan,
  answerScans,
  type RunScan,
  type ScanReply,
  type ScanTask,
  type WorkerScope,
} from "./worker_protocol.ts";
export { failureKind, ioFailure, runTask, type Task, type TaskOptions } from "./worker_task.ts";
