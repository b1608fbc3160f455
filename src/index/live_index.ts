/**
 * The live index (contract §18): for each root, a watch worker that reports changes and
 * an index worker that answers the root's scans from memory, kept true by those changes.
 * A scan goes to the index worker only while the root is watched; otherwise (the watch
 * is starting, failed, broke, or the index passed `INDEX_MAX_ENTRIES` or its memory
 * budget) it is a plain walk on the pool, never a stale answer. The first call on a root
 * starts its watch.
 *
 * An indexed call keeps every promise a walk keeps (contract §12, §19): its time counts
 * from when it was made, waiting for the index included; it waits for the index at most
 * `waitMs`, then walks; cancelling it stops its scan and leaves the index intact; if the
 * index goes away under it (the watch breaks, the worker fails), it is answered by a walk.
 *
 * @module
 */
import type { Root } from "../config.ts";
import { ToolError } from "../errors.ts";
import { type Clock, systemClock } from "../ports/clock.ts";
import type { ScanOutcome } from "../search/collector.ts";
import { HungRoots } from "../search/hung_roots.ts";
import { type SearchRequest, WHOLE } from "../search/request.ts";
import type { ScanProgress } from "../search/scan.ts";
import type { Scanner } from "../search/scanner.ts";
import { spawnSandboxed } from "../search/worker_pool.ts";
import type { IndexReport } from "../search/worker_protocol.ts";
import { runTask, type Task } from "../search/worker_task.ts";
import { WORKER_MODULES } from "../worker_modules.ts";
import type { IndexControl, WatchCommand, WatchReport } from "./index_protocol.ts";
import { settledWithin } from "./settled_within.ts";

/** Where a root's index stands, for `fs.list_roots` and the logs. */
export interface IndexStatus {
  /** `starting`: the watch is being set up; `watching`: answers come from the index. */
  state: "off" | "starting" | "watching";
  /** Entries the index holds. */
  entries: number;
  /** Why it is off. */
  reason?: string;
}

/** Options of {@linkcode LiveIndex}. */
export interface LiveIndexOptions {
  /** Every root and real path the workers may read. */
  readPaths: string[];
  /** `INDEX_MAX_ENTRIES`: past it a root is scanned as with the index off. */
  maxEntries: number;
  /** One line for the logs, once per change of a root's state. */
  log(level: "info" | "warning", message: string): void;
  /** How long past `SCAN_TIMEOUT_MS` a silent worker is given. Default 1000 ms. */
  graceMs?: number;
  /** How long a call waits for its root's index (busy with another call) before it walks. Default 1000 ms. */
  waitMs?: number;
  /** How long the watch worker may take to pass on the changes it has read. Default 2000 ms. */
  flushMs?: number;
  /** How long after a failed or broken watch it is tried again. Default 60 s. */
  retryMs?: number;
  /** The memory of hung roots, shared with the walks. Default: its own. */
  hungRoots?: HungRoots;
  /** When calls are made. Default the system clock. */
  clock?: Clock;
  /** The watch worker's module. Default: the real one. */
  watchWorkerUrl?: URL;
  /** The index worker's module. Default: the real one. */
  indexWorkerUrl?: URL;
  /** Told of every batch of changes once it is on its way to the index (for tests). */
  onChanges?: (paths: string[], rescan: boolean) => void;
}

/** The index went away under a call (its root went back to walks). */
class IndexStopped extends Error {}

/** One root's index. */
interface RootIndex {
  number: number;
  where: Root;
  status: IndexStatus;
  watch: Worker | null;
  index: Worker | null;
  /** Scans run one at a time on the index worker: each waits for the one before. */
  queue: Promise<void>;
  /** The scan on the index worker now. */
  inflight: Task | null;
  pings: Map<number, () => void>;
  retry: ReturnType<typeof setTimeout> | undefined;
}

/** A scanner that answers from a live index where it can, and walks where it cannot. */
export class LiveIndex implements Scanner {
  readonly #walk: Scanner;
  readonly #options: LiveIndexOptions;
  readonly #hung: HungRoots;
  readonly #clock: Clock;
  readonly #roots = new Map<string, RootIndex>();
  readonly #order: string[];
  #nextPing = 1;
  #closed = false;

  /** `walk` answers whatever the index cannot; `roots` are numbered for the logs. */
  constructor(walk: Scanner, roots: readonly Root[], options: LiveIndexOptions) {
    this.#walk = walk;
    this.#options = options;
    this.#hung = options.hungRoots ?? new HungRoots();
    this.#clock = options.clock ?? systemClock;
    this.#order = roots.map((r) => r.path);
  }

  async run(
    request: SearchRequest,
    signal?: AbortSignal,
    onProgress?: (progress: ScanProgress) => void,
  ): Promise<ScanOutcome> {
    const madeAt = this.#clock.now();
    const root = this.#rootIndex(request.root);
    if (root.status.state === "watching") {
      const answer = await this.#fromIndex(root, request, madeAt, signal, onProgress);
      if (answer) return answer;
    }
    return this.#walk.run(this.#timeLeft(request, madeAt), signal, onProgress);
  }

  /** Each root's index, in the order of the roots. */
  status(): IndexStatus[] {
    return this.#order.map((path) =>
      this.#roots.get(path)?.status ?? { state: "off", entries: 0, reason: "not used yet" }
    );
  }

  close(): void {
    this.#closed = true;
    for (const root of this.#roots.values()) {
      clearTimeout(root.retry);
      root.inflight?.abandon();
      root.watch?.terminate();
      root.index?.terminate();
      for (const resolve of root.pings.values()) resolve();
    }
    this.#walk.close();
  }

  /** The answer from the index, or `null` when the call is to walk instead. */
  async #fromIndex(
    root: RootIndex,
    request: SearchRequest,
    madeAt: number,
    signal: AbortSignal | undefined,
    onProgress: ((progress: ScanProgress) => void) | undefined,
  ): Promise<ScanOutcome | null> {
    const leave = await this.#turn(root, signal);
    if (!leave) return null;
    let handedOver = false; // to the task, which leaves when its worker is done
    try {
      if (!(await this.#flush(root, signal)) || root.status.state !== "watching") return null;
      const worker = root.index ??= this.#startIndex();
      const task = runTask(worker, { ...this.#timeLeft(request, madeAt), share: WHOLE }, {
        signal: signal ?? new AbortController().signal,
        onProgress,
        graceMs: this.#options.graceMs ?? 1000,
        keepOnCancel: true,
        settle: (keep) => {
          if (root.inflight === task) root.inflight = null;
          if (!keep && root.index === worker) this.#dropIndex(root); // stuck: start afresh
          leave();
        },
        onIndex: (report) => this.#indexReport(root, report),
      });
      root.inflight = task;
      handedOver = true;
      return await this.#hung.track(request.root.path, () => task.outcome);
    } catch (err) {
      if (signal?.aborted) throw err;
      // The index went away under the call, or its worker failed: a walk answers.
      if (err instanceof IndexStopped) return null;
      if (err instanceof ToolError && err.code === "IOFailure") return null;
      throw err;
    } finally {
      if (!handedOver) leave();
    }
  }

  /**
   * Waits for the root's index to be free, at most `waitMs`: a function to free it again,
   * or `null` if it stayed busy. Rejects with the signal's reason if the call is cancelled.
   */
  async #turn(root: RootIndex, signal: AbortSignal | undefined): Promise<(() => void) | null> {
    const before = root.queue;
    let leave!: () => void;
    const mine = new Promise<void>((resolve) => (leave = resolve));
    root.queue = before.then(() => mine);
    try {
      if (await settledWithin(before, this.#options.waitMs ?? 1000, signal)) return leave;
    } catch (err) {
      leave();
      throw err;
    }
    leave();
    return null;
  }

  /** The request with what is left of its time since the call was made (contract §19). */
  #timeLeft(request: SearchRequest, madeAt: number): SearchRequest {
    const spent = this.#clock.now() - madeAt;
    if (spent <= 0) return request;
    const scanTimeoutMs = Math.max(1, request.limits.scanTimeoutMs - spent);
    return { ...request, limits: { ...request.limits, scanTimeoutMs } };
  }

  #indexReport(root: RootIndex, report: IndexReport): void {
    root.status.entries = report.entries;
    if (report.overflowed === null) return;
    root.inflight = null; // its answer stands: the index is dropped after it
    const mb = Math.round(report.budgetBytes / 2 ** 20);
    this.#stop(
      root,
      report.overflowed === "entries"
        ? `more than ${this.#options.maxEntries} entries (INDEX_MAX_ENTRIES)`
        : `its index reached its memory budget (${mb} MB) at ${report.entries} entries`,
    );
  }

  #rootIndex(root: Root): RootIndex {
    let found = this.#roots.get(root.path);
    if (!found) {
      found = {
        number: this.#order.indexOf(root.path) + 1,
        where: root,
        status: { state: "off", entries: 0 },
        watch: null,
        index: null,
        queue: Promise.resolve(),
        inflight: null,
        pings: new Map(),
        retry: undefined,
      };
      this.#roots.set(root.path, found);
      this.#watch(found);
    }
    return found;
  }

  #watch(root: RootIndex): void {
    if (this.#closed) return;
    root.status = { state: "starting", entries: 0 };
    const url = this.#options.watchWorkerUrl ?? WORKER_MODULES.watch;
    const watch = spawnSandboxed(url, this.#options.readPaths);
    root.watch = watch;
    watch.onmessage = (event: MessageEvent<WatchReport>) => {
      const report = event.data;
      if (report.type === "ready") {
        root.status = { state: "watching", entries: 0 };
        this.#options.log(
          "info",
          `index: root #${root.number} is watched; answers come from memory.`,
        );
      } else if (report.type === "changes") {
        this.#post(root, { type: "changes", changes: report.changes, rescan: report.rescan });
        this.#options.onChanges?.(report.changes.flatMap((c) => c.paths), report.rescan);
        if (report.rescan) {
          this.#options.log(
            "warning",
            `index: root #${root.number} changed faster than its events could be read; its index starts over.`,
          );
        }
      } else if (report.type === "pong") {
        root.pings.get(report.id)?.();
        root.pings.delete(report.id);
      } else {
        const why = report.type === "failed" ? "the watch failed" : "the watch broke";
        this.#stopAndRetry(root, `${why}: ${report.reason}`);
      }
    };
    watch.onerror = (event) => {
      event.preventDefault();
      this.#stop(root, "the watch worker failed");
    };
    const command: WatchCommand = { type: "watch", path: root.where.realPath };
    watch.postMessage(command);
  }

  /**
   * Waits until the watch worker has passed on every change it has read (true), at most
   * `flushMs`: a watch that does not answer by then is taken for broken (false).
   */
  async #flush(root: RootIndex, signal: AbortSignal | undefined): Promise<boolean> {
    const watch = root.watch;
    if (!watch) return false;
    const id = this.#nextPing++;
    const pong = new Promise<void>((resolve) => root.pings.set(id, resolve));
    const command: WatchCommand = { type: "ping", id };
    watch.postMessage(command);
    if (await settledWithin(pong, this.#options.flushMs ?? 2000, signal)) return true;
    root.pings.delete(id);
    if (root.watch === watch) this.#stopAndRetry(root, "the watch stopped answering");
    return false;
  }

  #startIndex(): Worker {
    const url = this.#options.indexWorkerUrl ?? WORKER_MODULES.index;
    const worker = spawnSandboxed(url, this.#options.readPaths);
    const record: IndexControl = { type: "record", maxEntries: this.#options.maxEntries };
    worker.postMessage(record);
    return worker;
  }

  #post(root: RootIndex, control: IndexControl): void {
    root.index?.postMessage(control);
  }

  #dropIndex(root: RootIndex): void {
    root.index?.terminate();
    root.index = null;
    root.status.entries = 0;
  }

  /**
   * Back to plain walks for this root, never a stale answer; said once in the logs. A
   * call on the index now is answered by a walk.
   */
  #stop(root: RootIndex, reason: string): void {
    root.inflight?.abandon(new IndexStopped());
    root.inflight = null;
    root.watch?.terminate();
    root.watch = null;
    this.#dropIndex(root);
    for (const resolve of root.pings.values()) resolve();
    root.pings.clear();
    if (root.status.state === "off" && root.status.reason === reason) return;
    root.status = { state: "off", entries: 0, reason };
    this.#options.log(
      "warning",
      `index: root #${root.number} is scanned without an index: ${reason}.`,
    );
  }

  /** {@linkcode #stop}, and the watch is tried again after `retryMs`. */
  #stopAndRetry(root: RootIndex, reason: string): void {
    this.#stop(root, reason);
    clearTimeout(root.retry);
    root.retry = setTimeout(() => this.#watch(root), this.#options.retryMs ?? 60_000);
  }
}
