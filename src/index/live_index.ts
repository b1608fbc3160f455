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
import { type Clock, systemClock } from "../ports/mod.ts";
import { type ScanOutcome, WHOLE } from "../walk/mod.ts";
import {
  HungRoots,
  type RunOptions,
  runTask,
  type Scanner,
  spawnSandboxed,
  type Task,
} from "../workers/mod.ts";
import { type SearchRequest, withTimeSpent } from "../query/mod.ts";
import { WORKER_MODULES } from "../worker_modules.ts";
import type { IndexControl, IndexReport } from "./index_protocol.ts";
import { RootWatch } from "./root_watch.ts";
import { Turns } from "./turns.ts";

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
  watch: RootWatch | null;
  index: Worker | null;
  /** Scans run one at a time on the index worker. */
  turns: Turns;
  /** The scan on the index worker now. */
  inflight: Task | null;
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
  #closed = false;

  /** `walk` answers whatever the index cannot; `roots` are numbered for the logs. */
  constructor(walk: Scanner, roots: readonly Root[], options: LiveIndexOptions) {
    this.#walk = walk;
    this.#options = options;
    this.#hung = options.hungRoots ?? new HungRoots();
    this.#clock = options.clock ?? systemClock;
    this.#order = roots.map((r) => r.path);
  }

  async run(request: SearchRequest, options: RunOptions = {}): Promise<ScanOutcome> {
    const madeAt = this.#clock.now();
    const root = this.#rootIndex(request.root);
    if (root.status.state === "watching") {
      const answer = await this.#fromIndex(root, request, madeAt, options);
      if (answer) return answer;
    }
    return this.#walk.run(withTimeSpent(request, this.#clock.now() - madeAt), options);
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
      root.watch?.close();
      root.index?.terminate();
    }
    this.#walk.close();
  }

  /** The answer from the index, or `null` when the call is to walk instead. */
  async #fromIndex(
    root: RootIndex,
    request: SearchRequest,
    madeAt: number,
    options: RunOptions,
  ): Promise<ScanOutcome | null> {
    const { signal, onProgress, keepAll = 0 } = options;
    const leave = await root.turns.take(this.#options.waitMs ?? 1000, signal);
    if (!leave) return null;
    let handedOver = false; // to the task, which leaves when its worker is done
    try {
      const flushed = await root.watch?.flush(this.#options.flushMs ?? 2000, signal);
      if (!flushed || root.status.state !== "watching") return null;
      const worker = root.index ??= this.#startIndex();
      const task = runTask(worker, withTimeSpent(request, this.#clock.now() - madeAt), {
        plan: { share: WHOLE, keepAll },
        signal: signal ?? new AbortController().signal,
        onProgress,
        graceMs: this.#options.graceMs ?? 1000,
        keepOnCancel: true,
        settle: (keep) => {
          if (root.inflight === task) root.inflight = null;
          if (!keep && root.index === worker) this.#dropIndex(root); // stuck: start afresh
          leave();
        },
        onReport: (report) => this.#indexReport(root, report as IndexReport),
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

  #indexReport(root: RootIndex, report: IndexReport): void {
    if (report.overflowed === null) {
      root.status.entries = report.entries;
      return;
    }
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
        turns: new Turns(),
        inflight: null,
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
    root.watch = new RootWatch(url, this.#options.readPaths, root.where.realPath, {
      ready: () => {
        root.status = { state: "watching", entries: 0 };
        this.#options.log(
          "info",
          `index: root #${root.number} is watched; answers come from memory.`,
        );
      },
      changes: (changes, rescan) => {
        this.#post(root, { type: "changes", changes, rescan });
        this.#options.onChanges?.(changes.flatMap((c) => c.paths), rescan);
        if (rescan) {
          this.#options.log(
            "warning",
            `index: root #${root.number} changed faster than its events could be read; its index starts over.`,
          );
        }
      },
      lost: (reason, retry) => {
        this.#stop(root, reason);
        if (retry) {
          clearTimeout(root.retry);
          root.retry = setTimeout(() => this.#watch(root), this.#options.retryMs ?? 60_000);
        }
      },
    });
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
    root.watch?.close();
    root.watch = null;
    this.#dropIndex(root);
    if (root.status.state === "off" && root.status.reason === reason) return;
    root.status = { state: "off", entries: 0, reason };
    this.#options.log(
      "warning",
      `index: root #${root.number} is scanned without an index: ${reason}.`,
    );
  }
}
