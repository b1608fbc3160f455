/**
 * The messages between the server and its scan workers, and the worker's side of them.
 *
 * @module
 */
import { ToolError, type ToolErrorData } from "../errors.ts";
import {
  matchersFor,
  scan,
  ScanCancelled,
  type ScanOutcome,
  type ScanPlan,
  type ScanProgress,
  type ScanTools,
} from "../walk/mod.ts";
import type { SearchRequest } from "../query/mod.ts";

/** Server to worker: run one scan. */
export interface ScanTask {
  id: number;
  request: SearchRequest;
  /** Its share of the entries, and what it keeps for later pages. */
  plan: ScanPlan;
  /**
   * Shared with the server (on a `SharedArrayBuffer`): set to 1 when the call is
   * cancelled, so the scan stops at its next entry without the worker being stopped.
   */
  cancel?: Int32Array;
  /**
   * Shared with the server: while its value is above 0, the scan waits before its next
   * entry (a background scan giving way to calls), at most `GIVE_WAY_MS` at a time.
   */
  giveWay?: Int32Array;
  /**
   * Shared with the server: once its value is above 0, the scan stops at its next entry,
   * as if cancelled (a scan nobody asked for, ending as soon as a call runs).
   */
  stopWhile?: Int32Array;
}

/** Worker to server: the scan started, a progress report, or how the scan ended. */
export type ScanReply =
  | { id: number; type: "started" }
  | { id: number; type: "progress"; progress: ScanProgress }
  /** `report`: what a worker adds about itself, for whoever started it (opaque here). */
  | { id: number; type: "done"; outcome: ScanOutcome; report?: unknown }
  | { id: number; type: "error"; error: ToolErrorData }
  /** The scan stopped: its call was cancelled (`ScanTask.cancel`), or a call ran (`stopWhile`). */
  | { id: number; type: "cancelled" }
  | { id: number; type: "crash"; kind: string };

/** The global scope of a worker, as far as scans use it. */
export interface WorkerScope {
  onmessage: ((event: MessageEvent<ScanTask>) => void | Promise<void>) | null;
  postMessage(message: ScanReply): void;
}

/**
 * Answers every {@linkcode ScanTask} sent to this worker by scanning with `tools`.
 *
 * @example
 * ```ts
 * // A worker's entry module:
 * answerScans(self as unknown as WorkerScope, { fs: denoFs, clock: systemClock, guard: strictGuard });
 * ```
 */
export function answerScans(scope: WorkerScope, tools: ScanTools): void {
  scope.onmessage = (event) => answerScan(scope, tools, event.data);
}

/** How long a fill gives way to running calls at a time, in ms. */
export const GIVE_WAY_MS = 50;
/** How long a fill then runs beside them before it gives way again, in ms. */
export const SHARE_MS = 150;

/** How a worker runs one scan: plain `scan` by default; an index worker adds its checks. */
export type RunScan = (
  request: SearchRequest,
  plan: ScanPlan,
  onProgress: (progress: ScanProgress) => void,
  checkpoint: () => boolean,
) => Promise<ScanOutcome>;

/**
 * Answers one task with `tools` (or with `run`); `report` adds what the worker says about
 * itself to each answer.
 */
export async function answerScan(
  scope: Pick<WorkerScope, "postMessage">,
  tools: ScanTools,
  task: ScanTask,
  report?: () => unknown,
  run: RunScan = (request, plan, onProgress, checkpoint) =>
    scan(request, tools, plan, onProgress, checkpoint),
): Promise<void> {
  const { id, request, plan, cancel, giveWay: waitWhile, stopWhile } = task;
  scope.postMessage({ id, type: "started" });
  /**
   * Blocks this worker while calls run (`ScanTask.giveWay`), a fill waiting here: for
   * {@linkcode GIVE_WAY_MS} at most, then it runs {@linkcode SHARE_MS} before it waits
   * again, so that a steady stream of calls slows the fill but never stops it (contract
   * §18: the index gets ready while it is used).
   */
  let ranFrom = -Infinity; // calls first
  const giveWay = () => {
    if (waitWhile === undefined || Atomics.load(waitWhile, 0) === 0) return;
    const now = performance.now();
    if (now - ranFrom < SHARE_MS) return;
    const until = now + GIVE_WAY_MS;
    for (let calls, left; (calls = Atomics.load(waitWhile, 0)) > 0;) {
      if ((left = until - performance.now()) <= 0) break;
      Atomics.wait(waitWhile, 0, calls, left);
    }
    ranFrom = performance.now();
  };
  const cancelled = () =>
    (cancel !== undefined && Atomics.load(cancel, 0) !== 0) ||
    (stopWhile !== undefined && Atomics.load(stopWhile, 0) > 0);
  /** Before each entry: give way, then say whether to stop. */
  const checkpoint = () => {
    giveWay();
    return cancelled();
  };
  try {
    const loading = matchersFor(request.filter); // picomatch or `ignore`, the first time asked
    if (loading) await loading;
    const outcome = await run(
      request,
      plan,
      (progress) => scope.postMessage({ id, type: "progress", progress }),
      checkpoint,
    );
    scope.postMessage({ id, type: "done", outcome, ...(report ? { report: report() } : {}) });
  } catch (err) {
    if (err instanceof ScanCancelled) {
      scope.postMessage({ id, type: "cancelled" });
    } else if (err instanceof ToolError) {
      scope.postMessage({ id, type: "error", error: err.toData() });
    } else {
      // Only the error's class name: its message may hold an absolute path.
      scope.postMessage({ id, type: "crash", kind: err instanceof Error ? err.name : "unknown" });
    }
  }
}
