/**
 * The live index (contract §18): per root, a watch worker that reports changes and an
 * index worker that answers the root's scans from memory, kept true by them. Once the
 * watch runs, the index is filled by one scan of the root (index_build.ts) that gives way
 * to calls; then the root is `ready`. Only a ready root's scans go to its index; any other
 * (starting, building, off) is walked on the pool, never answered stale. With `eager`
 * (`INDEX=on`) every root starts with the server; else a root's first call starts it.
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
  type TaskOptions,
} from "../workers/mod.ts";
import { type SearchRequest, withTimeSpent } from "../query/mod.ts";
import { WORKER_MODULES } from "../worker_modules.ts";
import { Calls } from "./calls.ts";
import {
  FILL_TIMEOUT_MS,
  fillRequest,
  helperLine,
  offLine,
  overflowReason,
  readyLine,
  rebuildLine,
} from "./index_build.ts";
import type { IndexStatus, LiveIndexOptions } from "./live_index_options.ts";
import type { IndexControl, IndexReport } from "./index_protocol.ts";
import { RootWatch } from "./root_watch.ts";
import { startFeed } from "./fill_feed.ts";
import { newRootIndex, type RootIndex } from "./root_index.ts";

/**
 * With `eager`, roots start once no call has run for 250 ms; after 2 s, in the first gap
 * between calls; after 30 s, whatever the calls (calls.ts).
 */
const START_TIMES = { quietMs: 250, soonMs: 2000, latestMs: 30_000 };
const STARTING: IndexStatus = { state: "starting", entries: 0 };

/** The index went away under a call (its root went back to walks). */
class IndexStopped extends Error {}

/** A scanner that answers from a live index where it can, and walks where it cannot. */
export class LiveIndex implements Scanner {
  readonly #walk: Scanner;
  readonly #options: LiveIndexOptions;
  readonly #hung: HungRoots;
  readonly #clock: Clock;
  readonly #roots = new Map<string, RootIndex>();
  readonly #order: string[];
  /** Calls running now: the fills wait for them, and eager starts for a quiet moment. */
  readonly #calls = new Calls();
  #closed = false;

  /** `walk` answers whatever the index cannot; `roots` are numbered for the logs. */
  constructor(walk: Scanner, roots: readonly Root[], options: LiveIndexOptions) {
    this.#walk = walk;
    this.#options = options;
    this.#hung = options.hungRoots ?? new HungRoots();
    this.#clock = options.clock ?? systemClock;
    this.#order = roots.map((r) => r.path);
    if (options.eager) {
      const start = () => roots.forEach((root) => this.#rootIndex(root));
      this.#calls.whenQuiet(START_TIMES, () => this.#clock.now(), start);
    }
  }

  async run(request: SearchRequest, options: RunOptions = {}): Promise<ScanOutcome> {
    const madeAt = this.#clock.now();
    // Eager roots start once calls are quiet; a lazy root starts on its first call.
    const root = this.#options.eager
      ? this.#roots.get(request.root.path)
      : this.#rootIndex(request.root);
    this.#calls.begin(); // fills give way until the call is answered
    try {
      if (root?.status.state === "ready") {
        const answer = await this.#fromIndex(root, request, madeAt, options);
        if (answer) return answer;
      }
      return await this.#walk.run(withTimeSpent(request, this.#clock.now() - madeAt), options);
    } finally {
      this.#calls.end(this.#clock.now());
    }
  }

  /** Each root's index, in the order of the roots. */
  status(): IndexStatus[] {
    return this.#order.map((path) =>
      this.#roots.get(path)?.status ??
        (this.#options.eager ? STARTING : { state: "off", entries: 0, reason: "not used yet" })
    );
  }

  close(): void {
    this.#closed = true;
    this.#calls.close();
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
      if (!flushed || root.status.state !== "ready") return null;
      const task = this.#task(root, withTimeSpent(request, this.#clock.now() - madeAt), leave, {
        plan: { share: WHOLE, keepAll },
        signal: signal ?? new AbortController().signal,
        onProgress,
        keepOnCancel: true,
      });
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
    this.#stop(root, overflowReason(report, this.#options.maxEntries));
  }

  #rootIndex(root: Root): RootIndex {
    let found = this.#roots.get(root.path);
    if (!found) {
      found = newRootIndex(this.#order.indexOf(root.path) + 1, root);
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
      ready: () => void this.#build(root),
      changes: (changes, rescan) => {
        root.index?.postMessage({ type: "changes", changes, rescan } satisfies IndexControl);
        this.#options.onChanges?.(changes.flatMap((c) => c.paths), rescan);
        if (rescan) {
          this.#options.log("warning", rebuildLine(root.number));
          if (root.status.state === "building") root.rebuild = true;
          else if (root.status.state === "ready") void this.#build(root);
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

  /**
   * Fills the root's index in the background (index_build.ts), then makes it `ready`;
   * calls meanwhile walk, and the fill gives way to them.
   */
  async #build(root: RootIndex): Promise<void> {
    const started = this.#clock.now();
    root.status = { state: "building", entries: 0 };
    root.rebuild = false;
    // A call still on the index (before a rebuild) ends within its own hard deadline.
    const leave = await root.turns.take(FILL_TIMEOUT_MS);
    if (!leave) return this.#stop(root, "its index could not be built (a call on it never ended)");
    if (this.#closed || root.status.state !== "building") return leave();
    const request = fillRequest(root.where, this.#options.maxEntries, this.#options.maxDepth);
    const endFeed = startFeed(root.index ??= this.#startIndex(), request, {
      url: this.#options.fillWorkerUrl ?? WORKER_MODULES.fill,
      readPaths: this.#options.readPaths,
      giveWay: this.#calls.running,
      graceMs: this.#options.graceMs ?? 1000,
      onFailed: () => this.#options.log("warning", helperLine(root.number)),
    });
    const task = this.#task(root, request, leave, {
      plan: { share: WHOLE, keepAll: 0 },
      signal: new AbortController().signal,
      onProgress: ({ files, directories }) => {
        if (root.status.state === "building") root.status.entries = files + directories;
      },
      giveWay: this.#calls.running,
    });
    const worker = root.index;
    try {
      const outcome = await task.outcome.finally(endFeed);
      if (root.status.state !== "building" || root.index !== worker) return; // stopped meanwhile
      if (root.rebuild) return void this.#build(root);
      root.status = { state: "ready", entries: root.status.entries };
      const ms = this.#clock.now() - started;
      this.#options.log("info", readyLine(root.number, root.status.entries, ms, outcome));
    } catch (err) {
      if (this.#closed || root.status.state !== "building") return; // stopped meanwhile
      const why = err instanceof ToolError ? err.code : err instanceof Error ? err.name : "error";
      this.#stop(root, `its index could not be built (${why})`);
    }
  }

  /**
   * Runs `request` on the root's index worker (started if need be) as the root's scan in
   * flight; `leave` ends the turn once the worker is done with it.
   */
  #task(
    root: RootIndex,
    request: SearchRequest,
    leave: () => void,
    options: Omit<TaskOptions, "graceMs" | "settle" | "onReport">,
  ): Task {
    const worker = root.index ??= this.#startIndex();
    const task = runTask(worker, request, {
      ...options,
      graceMs: this.#options.graceMs ?? 1000,
      settle: (keep) => {
        if (root.inflight === task) root.inflight = null;
        if (!keep && root.index === worker) this.#dropIndex(root); // stuck: start afresh
        leave();
      },
      onReport: (report) => this.#indexReport(root, report as IndexReport),
    });
    root.inflight = task;
    return task;
  }

  #startIndex(): Worker {
    const url = this.#options.indexWorkerUrl ?? WORKER_MODULES.index;
    const worker = spawnSandboxed(url, this.#options.readPaths);
    worker.postMessage({ type: "record", maxEntries: this.#options.maxEntries } as IndexControl);
    return worker;
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
    this.#options.log("warning", offLine(root.number, reason));
  }
}
