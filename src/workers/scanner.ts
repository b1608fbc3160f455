/**
 * Where scans run: split into shares over sandboxed workers (worker_pool.ts), each with
 * a hard deadline. A worker stuck inside one file-system call (a network or cloud folder
 * that hangs) is stopped at `SCAN_TIMEOUT_MS` plus a grace period, and the call is
 * answered from the last boundary the worker reported (contract §19).
 *
 * @module
 */
import { type Clock, systemClock } from "../ports/mod.ts";
import {
  type JoinedRequest,
  mergeJoint,
  type ScanOutcome,
  type ScanPlan,
  type ScanProgress,
  type Share,
} from "../walk/mod.ts";
import { HungRoots } from "./hung_roots.ts";
import { isWalkOrder, type SearchRequest, withTimeSpent } from "../query/mod.ts";
import { sharesProgress } from "./shares_progress.ts";
import { type PoolCounts, WorkerPool, type WorkerPoolOptions } from "./worker_pool.ts";
import { runTask } from "./worker_task.ts";

/** Options of {@linkcode Scanner.run}: what the caller decides about one scan. */
export interface RunOptions {
  /** Cancels the scan. */
  signal?: AbortSignal;
  /** Told how the scan is getting on. */
  onProgress?: (progress: ScanProgress) => void;
  /**
   * Also keep every match, up to this many, so later pages need no scan (paging's choice).
   *
   * @default {0}
   */
  keepAll?: number;
  /**
   * Told who answered (contract §18): "the index", or "a walk (why)". A scanner that
   * only walks says nothing.
   */
  onAnswered?: (by: string) => void;
  /**
   * What a walk of the whole root cost when one was last made (its entries and time): a
   * call on a root whose index is being built waits for the build when the build will end
   * sooner than such a walk, and walks otherwise (contract §28a). Unknown: it walks.
   */
  walkCost?: WalkCost;
  /**
   * Other requests walked in the same walk (`ScanPlan.joined`, same `jointKey`): their
   * outcomes come in the outcome's `joined`, in this order, unless a share of the walk hung.
   */
  joined?: JoinedRequest[];
}

/** What a walk of a whole root cost: the entries it visited, and its time (ms). */
export interface WalkCost {
  entries: number;
  ms: number;
}

/** What the last walk of each whole root cost (by the root's path), kept as walks are made. */
export class WalkCosts {
  readonly #costs = new Map<string, WalkCost>();

  /** What a walk of the root at `path` cost last; `undefined` before one was made. */
  of(path: string): WalkCost | undefined {
    return this.#costs.get(path);
  }

  /** Runs `request` on `walk`, keeping what it says a walk of its whole root costs. */
  async walk(walk: Scanner, request: SearchRequest, options: RunOptions): Promise<ScanOutcome> {
    const started = performance.now();
    const outcome = await walk.run(request, options);
    const cost = walkCostOf(request, outcome, performance.now() - started);
    if (cost) this.#costs.set(request.root.path, cost);
    return outcome;
  }
}

/**
 * What the walk of `request` that gave `outcome` in `ms` says a walk of its whole root
 * costs; `null` when it did not walk the whole root (a subfolder, a depth, excludes, a
 * later page, path order, which ends once its page is full, or cut short by a limit).
 */
function walkCostOf(
  request: SearchRequest,
  outcome: ScanOutcome,
  ms: number,
): WalkCost | null {
  const { start, filter, after } = request;
  const whole = start.path === "" && start.recursive && start.maxDepth === null &&
    filter.exclude.length === 0 && !filter.respectIgnoreFiles && after === null &&
    !isWalkOrder(request.order);
  if (!whole || outcome.stopped !== null) return null;
  return { entries: outcome.walk.scannedFiles + outcome.walk.scannedDirectories, ms };
}

/** Runs scans. */
export interface Scanner {
  /**
   * Runs one scan; rejects with a {@linkcode ToolError} for the request's own errors,
   * and with the signal's reason when it is aborted.
   */
  run(request: SearchRequest, options?: RunOptions): Promise<ScanOutcome>;
  /** Stops every worker; pending scans reject. */
  close(): void;
}

/** The `count` shares a scan is split into (see `Share`). */
export function shares(count: number): Share[] {
  return Array.from({ length: count }, (_, index) => ({ index, count }));
}

/** Options of {@linkcode WorkerScanner}; the pool's, and these. */
export interface WorkerScannerOptions extends WorkerPoolOptions {
  /** Workers one scan is split over (shares of its entries). Default 2. */
  parallelism?: number;
  /** How long past `SCAN_TIMEOUT_MS` a silent worker is given before it is stopped. Default 1000 ms. */
  graceMs?: number;
  /** How long a root whose scan hung is remembered (and said so). Default 10 minutes. */
  rememberHungMs?: number;
  /** For the memory of hung roots, and the time a scan spent. Default the system clock. */
  clock?: Clock;
  /** The memory of hung roots, when it is shared (with the live index). Default: its own. */
  hungRoots?: HungRoots;
}

/** Runs each scan in sandboxed workers; keeps a few warm between calls. */
export class WorkerScanner implements Scanner {
  readonly #pool: WorkerPool;
  readonly #parallelism: number;
  readonly #graceMs: number;
  readonly #hung: HungRoots;
  readonly #clock: Clock;

  constructor(options: WorkerScannerOptions) {
    this.#pool = new WorkerPool(options);
    this.#parallelism = options.parallelism ?? 2;
    this.#graceMs = options.graceMs ?? 1000;
    this.#clock = options.clock ?? systemClock;
    this.#hung = options.hungRoots ?? new HungRoots({
      ...(options.rememberHungMs === undefined ? {} : { rememberMs: options.rememberHungMs }),
      ...(options.clock ? { clock: options.clock } : {}),
    });
  }

  run(request: SearchRequest, options: RunOptions = {}): Promise<ScanOutcome> {
    return this.#hung.track(request.root.path, () => this.#run(request, options));
  }

  async #run(request: SearchRequest, options: RunOptions): Promise<ScanOutcome> {
    // path_asc stops once its page is full, usually long before the end of the tree, so
    // it runs whole.
    const count = isWalkOrder(request.order) ? 1 : this.#parallelism;
    const started = this.#clock.now();
    // Told only when it grew (contract §12), also through a walk made again.
    let told = -1;
    const { onProgress } = options;
    const growing = onProgress && ((progress: ScanProgress) => {
      if (progress.scanned <= told) return;
      told = progress.scanned;
      onProgress(progress);
    });
    const passed = { ...options, ...(growing ? { onProgress: growing } : {}) };
    const merged = await this.#split(request, passed, count);
    if (merged !== null) return merged;
    // A limit may have stopped one whole walk, where the shares cannot tell: walk whole.
    const left = withTimeSpent(request, this.#clock.now() - started);
    return (await this.#split(left, passed, 1))!;
  }

  /** One scan split into `count` shares; `null` when their outcomes do not merge (collector.ts). */
  async #split(
    request: SearchRequest,
    options: RunOptions,
    count: number,
  ): Promise<ScanOutcome | null> {
    const { signal, onProgress, keepAll = 0, joined } = options;
    // One share failing stops the others.
    const stop = new AbortController();
    const stopAll = () => stop.abort(signal?.reason);
    signal?.addEventListener("abort", stopAll, { once: true });
    const progress = onProgress && count > 1 ? sharesProgress(count, onProgress) : undefined;
    try {
      const outcomes = await Promise.all(
        shares(count).map((share, i) =>
          this.#runShare(
            request,
            { share, keepAll, ...(joined ? { joined } : {}) },
            stop.signal,
            progress?.[i] ?? onProgress,
          )
            .catch((err) => {
              stop.abort(err);
              throw err;
            })
        ),
      );
      return mergeJoint(outcomes, request, keepAll, joined);
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

  async #runShare(
    request: SearchRequest,
    plan: ScanPlan,
    signal: AbortSignal,
    onProgress: ((progress: ScanProgress) => void) | undefined,
  ): Promise<ScanOutcome> {
    const lease = await this.#pool.acquire(signal);
    const task = runTask(lease.worker, request, {
      plan,
      signal,
      onProgress,
      graceMs: this.#graceMs,
      settle: lease.release,
    });
    lease.onClose = task.abandon;
    return await task.outcome;
  }
}
