/**
 * One scan on one worker, with the hard deadline of contract §19: a worker that has not
 * answered `SCAN_TIMEOUT_MS` + a grace period after it started the scan is given up, and
 * the call is answered from the last boundary it reported (or `TimeoutExceeded`).
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import type { ScanOutcome } from "./collector.ts";
import type { SearchRequest } from "./request.ts";
import type { ScanProgress } from "./scan.ts";
import type { IndexReport, ScanReply, ScanTask } from "./worker_protocol.ts";

/** How long a worker may take to start a scan (load its code) before it counts as hung. */
const START_ALLOWANCE_MS = 5000;

let nextId = 1;

/** Options of {@linkcode runTask}. */
export interface TaskOptions {
  signal: AbortSignal;
  onProgress?: ((progress: ScanProgress) => void) | undefined;
  /** How long past `SCAN_TIMEOUT_MS` a silent worker is given. */
  graceMs: number;
  /** Called once the worker is done with: `keep` when it finished cleanly (else stop it). */
  settle(keep: boolean): void;
  /** An index worker's report on its index, with its answer. */
  onIndex?: (report: IndexReport) => void;
}

/** A running task: its outcome, and a way to give it up (the server is closing). */
export interface Task {
  outcome: Promise<ScanOutcome>;
  abandon(): void;
}

/** Posts `request` to `worker` and follows it to its outcome. */
export function runTask(worker: Worker, request: SearchRequest, options: TaskOptions): Task {
  const { signal, onProgress } = options;
  const id = nextId++;
  let last: ScanProgress | null = null;
  let abandon = () => {};
  const outcome = new Promise<ScanOutcome>((resolve, reject) => {
    let settled = false;
    const finish = (keep: boolean) => {
      if (settled) return false;
      settled = true;
      clearTimeout(deadline);
      worker.onmessage = null;
      worker.onerror = null;
      signal.removeEventListener("abort", onAbort);
      options.settle(keep);
      return true;
    };
    const onAbort = () => {
      if (finish(false)) reject(signal.reason ?? new DOMException("aborted", "AbortError"));
    };
    // Stuck inside a file-system call: answer from the last report, stop the worker. The
    // clock runs from the task's start in the worker: a fresh worker first loads its
    // code, which may take a while on a busy machine (and if it never starts, the call
    // is still answered).
    const hang = () => {
      if (!finish(false)) return;
      if (last?.boundary == null) reject(hungError());
      else resolve(hungOutcome(last, last.boundary));
    };
    const limit = request.limits.scanTimeoutMs + options.graceMs;
    let deadline = setTimeout(hang, limit + START_ALLOWANCE_MS);
    worker.onmessage = (event: MessageEvent<ScanReply>) => {
      const reply = event.data;
      if (reply.id !== id) return;
      if (reply.type === "started") {
        clearTimeout(deadline);
        deadline = setTimeout(hang, limit);
        return;
      }
      if (reply.type === "progress") {
        last = reply.progress;
        onProgress?.(reply.progress);
        return;
      }
      if (!finish(true)) return;
      if (reply.type === "done") {
        if (reply.index) options.onIndex?.(reply.index);
        resolve(reply.outcome);
      } else if (reply.type === "error") reject(ToolError.fromData(reply.error));
      else reject(ioFailure(reply.kind));
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      if (finish(false)) reject(ioFailure("worker error"));
    };
    abandon = () => {
      if (finish(false)) reject(ioFailure("server shutting down"));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    const task: ScanTask = { id, request };
    worker.postMessage(task);
  });
  return { outcome, abandon: () => abandon() };
}

/** What a share that hung had covered: everything up to its last reported boundary. */
function hungOutcome(last: ScanProgress, boundary: string): ScanOutcome {
  return {
    stopped: { reason: "timeout", boundary },
    collected: {
      first: [],
      walkPrefix: last.walkPrefix,
      all: null,
      allComplete: false,
      total: null,
    },
    walk: {
      scannedDirectories: last.directories,
      scannedFiles: last.files,
      skipped: 0,
      excluded: 0,
    },
    entries: { skipped: 0, unknownTime: 0 },
    hung: "now",
  };
}

function hungError(): ToolError {
  return new ToolError(
    "TimeoutExceeded",
    "The scan hung inside the file system before covering any of the tree (a network or cloud-synced folder that does not answer?).",
    "Try again later, or narrow 'path' to a part of the folder that answers.",
  );
}

/** An unexpected failure of the scan machinery (or its shutdown), never of the request itself. */
export function ioFailure(kind: string): ToolError {
  return new ToolError(
    "IOFailure",
    `The scan failed unexpectedly (${kind}).`,
    "Retry in a moment, or narrow 'path'.",
  );
}
