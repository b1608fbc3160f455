/**
 * One scan on one worker, with the hard deadline of contract §19: a worker that has not
 * answered `SCAN_TIMEOUT_MS` + a grace period after it started the scan is given up, and
 * the call is answered from the last boundary it reported (or `TimeoutExceeded`).
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import type { ScanOutcome, ScanPlan, ScanProgress } from "../walk/mod.ts";
import type { SearchRequest } from "../query/mod.ts";
import type { ScanReply, ScanTask } from "./worker_protocol.ts";

/** How long a worker may take to start a scan (load its code) before it counts as hung. */
const START_ALLOWANCE_MS = 5000;

let nextId = 1;

/** Options of {@linkcode runTask}. */
export interface TaskOptions {
  /** The scan's share and what it keeps (the caller's to decide). */
  plan: ScanPlan;
  signal: AbortSignal;
  onProgress?: ((progress: ScanProgress) => void) | undefined;
  /** How long past `SCAN_TIMEOUT_MS` a silent worker is given. */
  graceMs: number;
  /** Called once the worker is done with: `keep` when it finished cleanly (else stop it). */
  settle(keep: boolean): void;
  /**
   * On cancel, ask the worker to stop the scan and keep it, rather than stop the worker:
   * for a worker whose state is worth keeping (an index). It has `graceMs` to confirm.
   * Default false.
   */
  keepOnCancel?: boolean;
  /** While its value is above 0, the scan waits (`ScanTask.giveWay`). */
  giveWay?: Int32Array;
  /** Once its value is above 0, the scan stops as if cancelled (`ScanTask.stopWhile`). */
  stopWhile?: Int32Array;
  /** What the worker says about itself with its answer (`answerScan`'s `report`). */
  onReport?: (report: unknown) => void;
}

/** A running task: its outcome, and a way to give it up (the server is closing). */
export interface Task {
  outcome: Promise<ScanOutcome>;
  /** Gives the task up: the outcome rejects with `reason` and the worker is stopped. */
  abandon(reason?: unknown): void;
}

/** Posts `request` to `worker` and follows it to its outcome. */
export function runTask(worker: Worker, request: SearchRequest, options: TaskOptions): Task {
  const { signal, onProgress } = options;
  const id = nextId++;
  const cancel = new Int32Array(new SharedArrayBuffer(4));
  let last: ScanProgress | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let answered = false;
  let released = false;
  let resolve!: (outcome: ScanOutcome) => void;
  let reject!: (reason: unknown) => void;
  const outcome = new Promise<ScanOutcome>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  /** The call's answer: given once; the worker may still be finishing. */
  const answer = (give: () => void) => {
    if (answered) return;
    answered = true;
    give();
  };
  /**
   * The worker, given back once: kept, or stopped. A worker stopped is told to stop its scan
   * too: Deno's `terminate()` only ends a worker at its next turn of its event loop (or kills
   * its isolate 2 s later), so a scan it is busy with would run on meanwhile (a cancelled or
   * restarted walk kept both cores busy to its end).
   */
  const release = (keep: boolean) => {
    if (released) return;
    released = true;
    if (!keep) Atomics.store(cancel, 0, 1);
    clearTimeout(timer);
    worker.onmessage = null;
    worker.onerror = null;
    signal.removeEventListener("abort", onAbort);
    options.settle(keep);
  };
  const aborted = () => signal.reason ?? new DOMException("aborted", "AbortError");
  const onAbort = () => {
    answer(() => reject(aborted()));
    if (!options.keepOnCancel) return release(false);
    Atomics.store(cancel, 0, 1); // the scan stops at its next entry and says so
    clearTimeout(timer);
    timer = setTimeout(() => release(false), options.graceMs);
  };
  // Stuck inside a file-system call: answer from the last report, stop the worker. The
  // clock runs from the task's start in the worker: a fresh worker first loads its
  // code, which may take a while on a busy machine (and if it never starts, the call
  // is still answered).
  const hang = () => {
    answer(() => {
      if (last?.boundary == null) reject(hungError());
      else resolve(hungOutcome(last, last.boundary));
    });
    release(false);
  };
  const limit = request.limits.scanTimeoutMs + options.graceMs;
  timer = setTimeout(hang, limit + START_ALLOWANCE_MS);
  worker.onmessage = (event: MessageEvent<ScanReply>) => {
    const reply = event.data;
    if (reply.id !== id) return;
    if (reply.type === "started") {
      if (answered) return;
      clearTimeout(timer);
      timer = setTimeout(hang, limit);
      return;
    }
    if (reply.type === "progress") {
      last = reply.progress;
      if (!answered) onProgress?.(reply.progress);
      return;
    }
    if (reply.type === "done") {
      if (reply.report !== undefined) options.onReport?.(reply.report);
      answer(() => resolve(reply.outcome));
    } else if (reply.type === "error") answer(() => reject(ToolError.fromData(reply.error)));
    else if (reply.type === "cancelled") answer(() => reject(aborted()));
    else answer(() => reject(ioFailure(reply.kind)));
    release(true);
  };
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    answer(() => reject(ioFailure("worker error")));
    release(false);
  };
  const abandon = (reason?: unknown) => {
    answer(() => reject(reason ?? ioFailure("server shutting down")));
    release(false);
  };
  if (signal.aborted) {
    answer(() => reject(aborted()));
    release(true); // the worker was never given the task
  } else {
    signal.addEventListener("abort", onAbort, { once: true });
    const { plan, giveWay, stopWhile } = options;
    const task: ScanTask = {
      id,
      request,
      plan,
      cancel,
      ...(giveWay ? { giveWay } : {}),
      ...(stopWhile ? { stopWhile } : {}),
    };
    worker.postMessage(task);
  }
  return { outcome, abandon };
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
    entries: { skipped: 0, unknownTime: 0, vcs: 0 },
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

/** What an {@linkcode ioFailure} names (an error's class, no path), or `null` for another error. */
export function failureKind(err: unknown): string | null {
  if (!(err instanceof ToolError) || err.code !== "IOFailure") return null;
  return /\(([^()]*)\)\.$/.exec(err.message)?.[1] ?? "failure";
}
