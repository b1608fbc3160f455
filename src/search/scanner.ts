/**
 * Where scans run: split into shares over sandboxed workers (worker_pool.ts), each with
 * a hard deadline. A worker stuck inside one file-system call (a network or cloud folder
 * that hangs) is stopped at `SCAN_TIMEOUT_MS` plus a grace period, and the call is
 * answered from the last boundary the worker reported (contract §19).
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import { type Clock, systemClock } from "../ports/clock.ts";
import { mergeShares, type ScanOutcome } from "./collector.ts";
import type { SearchRequest } from "./request.ts";
import type { ScanProgress } from "./scan.ts";
import { type PoolCounts, WorkerPool, type WorkerPoolOptions } from "./worker_pool.ts";
import type { ScanReply, ScanTask } from "./worker_protocol.ts";

export { WORKER_URL } from "./worker_pool.ts";

/** Runs scans. */
export interface Scanner {
  /**
   * Runs one scan; rejects with a {@linkcode ToolError} for the request's own errors,
   * and with the signal's reason when it is aborted.
   */
  run(
    request: SearchRequest,
    signal?: AbortSignal,
    onProgress?: (progress: ScanProgress) => void,
  ): Promise<ScanOutcome>;
  /** Stops every worker; pending scans reject. */
  close(): void;
}

/** Splits a request into `count` shares (see `SearchRequest.share`). */
export function shareRequests(request: SearchRequest, count: number): SearchRequest[] {
  return Array.from({ length: count }, (_, index) => ({ ...request, share: { index, count } }));
}

/** Options of {@linkcode WorkerScanner}; the pool's, and these. */
export interface WorkerScannerOptions extends WorkerPoolOptions {
  /** Workers one scan is split over (shares of its entries). Default 2. */
  parallelism?: number;
  /** How long past `SCAN_TIMEOUT_MS` a silent worker is given before it is stopped. Default 1000 ms. */
  graceMs?: number;
  /** How long a root whose scan hung is remembered (and said so). Default 10 minutes. */
  rememberHungMs?: number;
  /** For the memory of hung roots. Default the system clock. */
  clock?: Clock;
}

/** Runs each scan in sandboxed workers; keeps a few warm between calls. */
export class WorkerScanner implements Scanner {
  readonly #pool: WorkerPool;
  readonly #parallelism: number;
  readonly #graceMs: number;
  readonly #rememberHungMs: number;
  readonly #clock: Clock;
  /** Roots whose scan hung, with when. */
  readonly #hung = new Map<string, number>();
  #nextId = 1;

  constructor(options: WorkerScannerOptions) {
    this.#pool = new WorkerPool(options);
    this.#parallelism = options.parallelism ?? 2;
    this.#graceMs = options.graceMs ?? 1000;
    this.#rememberHungMs = options.rememberHungMs ?? 600_000;
    this.#clock = options.clock ?? systemClock;
  }

  async run(
    request: SearchRequest,
    signal?: AbortSignal,
    onProgress?: (progress: ScanProgress) => void,
  ): Promise<ScanOutcome> {
    // path_asc stops once its page is full, usually long before the end of the tree:
    // shares would each walk the same listings for little stat work, so it runs whole.
    const shares = request.order === "path_asc" ? 1 : this.#parallelism;
    // One share failing stops the others.
    const stop = new AbortController();
    const stopAll = () => stop.abort(signal?.reason);
    signal?.addEventListener("abort", stopAll, { once: true });
    const hungBefore = this.#hungRecently(request.root.path);
    try {
      const outcomes = await Promise.all(
        shareRequests(request, shares).map((part, i) =>
          this.#runShare(part, stop.signal, i === 0 ? onProgress : undefined).catch((err) => {
            stop.abort(err);
            throw err;
          })
        ),
      );
      const merged = mergeShares(outcomes, request);
      if (merged.hung === "now") this.#hung.set(request.root.path, this.#clock.now());
      else if (hungBefore) merged.hung = "before";
      return merged;
    } catch (err) {
      if (err instanceof ToolError && err.code === "TimeoutExceeded") {
        this.#hung.set(request.root.path, this.#clock.now());
      }
      throw err;
    } finally {
      signal?.removeEventListener("abort", stopAll);
    }
  }

  /** How many workers are idle, busy, and how many scans wait for one. */
  counts(): PoolCounts {
    return this.#pool.counts();
  }

  close(): void {
    this.#pool.close();
  }

  #hungRecently(rootPath: string): boolean {
    const at = this.#hung.get(rootPath);
    if (at === undefined) return false;
    if (this.#clock.now() - at < this.#rememberHungMs) return true;
    this.#hung.delete(rootPath);
    return false;
  }

  async #runShare(
    request: SearchRequest,
    signal: AbortSignal,
    onProgress: ((progress: ScanProgress) => void) | undefined,
  ): Promise<ScanOutcome> {
    const lease = await this.#pool.acquire(signal);
    const { worker } = lease;
    const id = this.#nextId++;
    let last: ScanProgress | null = null;
    return await new Promise<ScanOutcome>((resolve, reject) => {
      const finish = (keep: boolean) => {
        clearTimeout(deadline);
        worker.onmessage = null;
        worker.onerror = null;
        signal.removeEventListener("abort", onAbort);
        lease.release(keep);
      };
      const onAbort = () => {
        finish(false);
        reject(signal.reason ?? new DOMException("aborted", "AbortError"));
      };
      // Stuck inside a file-system call: answer from the last report, stop the worker.
      // The clock runs from the task's start in the worker: a fresh worker first loads
      // its code, which may take a while on a busy machine (and if it never starts,
      // the call is still answered).
      const hang = () => {
        finish(false);
        if (last?.boundary == null) reject(hungError());
        else resolve(hungOutcome(last, last.boundary));
      };
      const limit = request.limits.scanTimeoutMs + this.#graceMs;
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
        finish(true);
        if (reply.type === "done") resolve(reply.outcome);
        else if (reply.type === "error") reject(ToolError.fromData(reply.error));
        else reject(ioFailure(reply.kind));
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        finish(false);
        reject(ioFailure("worker error"));
      };
      lease.onClose = () => {
        finish(false);
        reject(ioFailure("server shutting down"));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      const task: ScanTask = { id, request };
      worker.postMessage(task);
    });
  }
}

/** How long a worker may take to start a scan (load its code) before it counts as hung. */
const START_ALLOWANCE_MS = 5000;

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

function ioFailure(kind: string): ToolError {
  return new ToolError(
    "IOFailure",
    `The scan failed unexpectedly (${kind}).`,
    "Retry in a moment, or narrow 'path'.",
  );
}
