/**
 * Where scans run: in Web Workers whose Deno permissions allow reading the roots and
 * nothing else (contract §13), a few kept warm, each scan split into shares over two.
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import { mergeShares, type ScanOutcome } from "./collector.ts";
import type { SearchRequest } from "./request.ts";
import type { ScanProgress } from "./scan.ts";
import type { ScanReply, ScanTask } from "./worker_protocol.ts";

/** The scan worker's entry module. */
export const WORKER_URL: URL = new URL("./scan_worker.ts", import.meta.url);

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

/** Options of {@linkcode WorkerScanner}. */
export interface WorkerScannerOptions {
  /** The only paths the workers may read: every root and its real path. */
  readPaths: string[];
  /** Idle workers kept warm between calls. Default 4. */
  idle?: number;
  /** Scans running at once; further calls wait their turn. Default 4. */
  maxWorkers?: number;
  /** Workers one scan is split over (shares of its entries). Default 2. */
  parallelism?: number;
  /** The workers' entry module. Default {@linkcode WORKER_URL}, the real file system. */
  workerUrl?: URL;
}

/** Runs each scan in a worker with narrowed permissions; keeps a few warm between calls. */
export class WorkerScanner implements Scanner {
  readonly #options: WorkerScannerOptions;
  readonly #idle: Worker[] = [];
  /** Busy workers, each with the function that abandons its scan. */
  readonly #busy = new Map<Worker, () => void>();
  /** Calls waiting for a free slot. */
  readonly #waiting: { start: () => void; fail: (reason: unknown) => void }[] = [];
  #running = 0;
  #nextId = 1;
  #closed = false;

  constructor(options: WorkerScannerOptions) {
    this.#options = options;
  }

  async run(
    request: SearchRequest,
    signal?: AbortSignal,
    onProgress?: (progress: ScanProgress) => void,
  ): Promise<ScanOutcome> {
    // path_asc stops once its page is full, usually long before the end of the tree:
    // shares would each walk the same listings for little stat work, so it runs whole.
    const shares = request.order === "path_asc" ? 1 : this.#options.parallelism ?? 2;
    const parts = shareRequests(request, shares);
    const outcomes = await Promise.all(
      parts.map((part, i) => this.#runShare(part, signal, i === 0 ? onProgress : undefined)),
    );
    return mergeShares(outcomes, request);
  }

  async #runShare(
    request: SearchRequest,
    signal: AbortSignal | undefined,
    onProgress: ((progress: ScanProgress) => void) | undefined,
  ): Promise<ScanOutcome> {
    await this.#acquire(signal);
    try {
      return await this.#runOn(this.#idle.pop() ?? this.#spawn(), request, signal, onProgress);
    } finally {
      this.#release();
    }
  }

  /** Waits for one of the `maxWorkers` slots. */
  #acquire(signal?: AbortSignal): Promise<void> {
    if (this.#closed) return Promise.reject(ioFailure("server shutting down"));
    signal?.throwIfAborted();
    if (this.#running < (this.#options.maxWorkers ?? 4)) {
      this.#running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          signal?.removeEventListener("abort", onAbort);
          this.#running++;
          resolve();
        },
        fail: (reason: unknown) => {
          signal?.removeEventListener("abort", onAbort);
          reject(reason);
        },
      };
      const onAbort = () => {
        this.#waiting.splice(this.#waiting.indexOf(entry), 1);
        entry.fail(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  #release(): void {
    this.#running--;
    this.#waiting.shift()?.start();
  }

  #runOn(
    worker: Worker,
    request: SearchRequest,
    signal: AbortSignal | undefined,
    onProgress: ((progress: ScanProgress) => void) | undefined,
  ): Promise<ScanOutcome> {
    const id = this.#nextId++;
    return new Promise<ScanOutcome>((resolve, reject) => {
      const finish = (keep: boolean) => {
        worker.onmessage = null;
        worker.onerror = null;
        signal?.removeEventListener("abort", onAbort);
        this.#busy.delete(worker);
        if (keep && !this.#closed && this.#idle.length < (this.#options.idle ?? 4)) {
          this.#idle.push(worker);
        } else {
          worker.terminate();
        }
      };
      const onAbort = () => {
        finish(false);
        reject(signal?.reason ?? new DOMException("aborted", "AbortError"));
      };
      worker.onmessage = (event: MessageEvent<ScanReply>) => {
        const reply = event.data;
        if (reply.id !== id) return;
        if (reply.type === "progress") {
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
      this.#busy.set(worker, () => {
        finish(false);
        reject(ioFailure("server shutting down"));
      });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      const task: ScanTask = { id, request };
      worker.postMessage(task);
    });
  }

  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiting.splice(0)) waiter.fail(ioFailure("server shutting down"));
    for (const abandon of [...this.#busy.values()]) abandon();
    for (const worker of this.#idle) worker.terminate();
    this.#idle.length = 0;
  }

  #spawn(): Worker {
    return new Worker(this.#options.workerUrl ?? WORKER_URL, {
      type: "module",
      deno: {
        permissions: {
          read: this.#options.readPaths,
          write: false,
          net: false,
          env: false,
          run: false,
          ffi: false,
          sys: false,
          import: false,
        },
      },
    });
  }
}

function ioFailure(kind: string): ToolError {
  return new ToolError(
    "IOFailure",
    `The scan failed unexpectedly (${kind}).`,
    "Retry in a moment, or narrow 'path'.",
  );
}
