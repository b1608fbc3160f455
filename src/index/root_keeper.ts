/**
 * Each root's live index over its life (contract §18): its watch (root_watch.ts), the fill
 * that makes it `ready` (index_words.ts, tried again with a growing wait when it fails),
 * the loss of events that makes it learn everything again, the index worker that runs
 * its scans one at a time, and the way back to plain walks, said once in the logs, with
 * the reason `fs.list_roots` shows. live_index.ts decides which calls it answers.
 *
 * @module
 */
import type { Root } from "../config.ts";
import { type Clock, systemClock } from "../ports/mod.ts";
import { type ScanOutcome, WHOLE } from "../walk/mod.ts";
import { failureKind, runTask, type Task, type TaskOptions } from "../workers/mod.ts";
import type { SearchRequest } from "../query/mod.ts";
import { WORKER_MODULES } from "../worker_modules.ts";
import { warmUp, warmUpTask } from "./warm_up.ts";
import type { Calls } from "./call_gate.ts";
import {
  cookiesFolder,
  DEFAULT_QUEUE_LIMIT,
  RootWatch,
  Stalls,
  stuckReason,
  writeFailure,
} from "./watch/mod.ts";
import { FILL_TIMEOUT_MS, fillRequest, refillIn, startFeed } from "./fill/mod.ts";
import {
  fillFailure,
  helperLine,
  offLine,
  overflowReason,
  readyLine,
  rebuildLine,
  rewatchReason,
} from "./index_words.ts";
import type { IndexControl, IndexReport } from "./answer/mod.ts";
import type { LiveIndexOptions } from "./live_index_options.ts";
import { endIndex, later, newRootIndex, type RootIndex, startIndex } from "./root_record.ts";

/** Why a root's watch is set up and its index built again after a loss. */
const LOST = "events were lost";
/** How soon a watch is set up again after a folder vanished under its set-up. */
const SHORTLY_MS = 500;

/** The index went away under a call (its root went back to walks). */
export class IndexStopped extends Error {}

/** The roots' indexes, each started on first use. */
export class RootKeeper {
  readonly #options: LiveIndexOptions;
  readonly #calls: Calls;
  readonly #clock: Clock;
  readonly #roots = new Map<string, RootIndex>();
  readonly #order: string[];
  #closed = false;
  /** The stalled watches this server holds (stalls.ts), bounded over its life. */
  readonly stalls = new Stalls();

  /** `calls`: the calls running now, which fills give way to. */
  constructor(roots: readonly Root[], options: LiveIndexOptions, calls: Calls) {
    this.#options = options;
    this.#calls = calls;
    this.#clock = options.clock ?? systemClock;
    this.#order = roots.map((r) => r.path);
  }

  /** The index of the root at `path`, if it was started. */
  get(path: string): RootIndex | undefined {
    return this.#roots.get(path);
  }

  /** Stops every root's watch and workers. */
  close(): void {
    this.#closed = true;
    for (const root of this.#roots.values()) {
      clearTimeout(root.retry);
      root.inflight?.abandon();
      root.watch?.close();
      if (root.index) endIndex(root.index);
    }
  }

  /** What an index worker said of its index with an answer (contract §18, §24). */
  indexReport(root: RootIndex, report: IndexReport): void {
    if (report.special || report.opened || report.mounted) {
      // Its answer stands: it was given before the watch could block, or those folders were
      // read from disk. The watch is planned again: without the FIFO's folder, or with the
      // folder it could not take or the file system mounted in it.
      root.inflight = null;
      if (report.special) root.watch?.specialSeen();
      return this.#lost(root, rewatchReason(report), "soon");
    }
    if (report.overflowed === null) {
      root.status.entries = report.entries;
      root.status.watches = report.watches;
      root.status.memoryBytes = report.memoryBytes;
      const { position, start, steps, bytes } = report.journal;
      root.status.journal = { position, start, steps, memoryBytes: bytes };
      return;
    }
    root.inflight = null; // its answer stands: the index is dropped after it
    this.#stop(root, overflowReason(report, this.#options.maxEntries));
  }

  /** The index of `root`, started (its watch set up) if it was not. */
  rootIndex(root: Root): RootIndex {
    let found = this.#roots.get(root.path);
    if (!found) {
      found = newRootIndex(this.#order.indexOf(root.path) + 1, root, this.#calls.running);
      this.#roots.set(root.path, found);
      this.#watch(found);
    }
    return found;
  }

  #watch(root: RootIndex, reason?: string): void {
    if (this.#closed) return;
    root.status = { state: "starting", entries: 0, ...(reason ? { reason } : {}) };
    let cookies: string;
    try {
      cookies = cookiesFolder(this.#options.cookies.path!, root.number);
    } catch (err) {
      return this.#stop(root, `its private folder could not be made (${writeFailure(err)})`);
    }
    root.watch = new RootWatch({
      url: this.#options.watchWorkerUrl ?? WORKER_MODULES.watch,
      readPaths: this.#options.readPaths,
      rootReal: root.where.realPath,
      cookies,
      queueLimit: this.#options.queueLimit ?? DEFAULT_QUEUE_LIMIT,
      stalls: this.stalls,
    }, {
      ready: (unwatched, why) => {
        root.unwatched = unwatched;
        root.readFromDisk = unwatched.length ? { folders: unwatched.length, ...why } : undefined;
        void this.#build(root, reason);
      },
      changes: (changes, rescan, lag) => {
        const message: IndexControl = { type: "changes", changes, rescan, ...lag };
        root.index?.postMessage(message);
        this.#options.onChanges?.(changes.flatMap((c) => c.paths), rescan);
        if (rescan) this.#rewatch(root);
      },
      lost: (reason, retry) => this.#lost(root, reason, retry),
    });
  }

  /**
   * Fills the root's index in the background (index_words.ts), then makes it `ready`;
   * calls meanwhile walk, and the fill gives way to them.
   */
  async #build(root: RootIndex, reason?: string): Promise<void> {
    const started = this.#clock.now();
    root.status = { state: "building", entries: 0, ...(reason ? { reason } : {}) };
    root.buildStartedAt = started; // its pace: build_wait.ts
    // A call still on the index (before a rebuild) ends within its own hard deadline.
    const leave = await root.turns.take(FILL_TIMEOUT_MS);
    if (!leave) return this.#stop(root, "its index could not be built (a call on it never ended)");
    if (this.#closed || root.status.state !== "building") return leave();
    const request = fillRequest(root.where, this.#options.maxEntries, this.#options.maxDepth);
    const index = root.index ??= startIndex(root, this.#options, this.#order.length);
    const toIndex = (ring: SharedArrayBuffer | null) =>
      index.postMessage({ type: "feed", ring, root: root.where.realPath } satisfies IndexControl);
    const endFeed = startFeed(toIndex, request, {
      url: this.#options.fillWorkerUrl ?? WORKER_MODULES.fill,
      readPaths: this.#options.readPaths,
      giveWay: this.#calls.running,
      graceMs: this.#options.graceMs ?? 1000,
      onFailed: () => this.#options.log("warning", helperLine(root.number)),
    });
    const task = this.task(root, request, leave, {
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
      const { entries, watches, memoryBytes } = root.status;
      root.status = {
        state: "ready",
        entries,
        ...(watches === undefined ? {} : { watches, memoryBytes }),
      };
      // Its journal begins now (contract §24): clocks of earlier epochs are fresh starts, and
      // until its worker reports a position, clocks name the time (answered from it).
      root.epoch++;
      worker?.postMessage({ type: "journal", at: this.#clock.now() } satisfies IndexControl);
      if (this.#options.warmUp !== false) void this.#warmUp(root, request, outcome);
      root.failedFills = 0;
      const ms = this.#clock.now() - started;
      this.#options.log("info", readyLine(root.number, root.status.entries, ms, outcome));
    } catch (err) {
      if (this.#closed || root.status.state !== "building" || root.index !== worker) return;
      this.#fillFailed(root, err);
    }
  }

  /** A fill that failed is tried again later (fill_request.ts `refillIn`), or the root walks. */
  #fillFailed(root: RootIndex, err: unknown): void {
    const why = fillFailure(err);
    const tries = ++root.failedFills;
    const unsettled = failureKind(err) === "IndexUnsettled";
    const ms = refillIn(tries, unsettled, this.#options.refillMs ?? 500);
    if (ms !== null) {
      const reason = `its fill is tried again (${why})`;
      root.status = { state: "building", entries: root.status.entries, reason };
      return later(root, () => void this.#build(root, reason), ms);
    }
    root.failedFills = 0;
    this.#stop(root, `its index could not be built in ${tries} tries (${why})`);
    later(root, () => this.#watch(root), this.#options.retryMs ?? 60_000);
  }

  /** Runs `request` on the root's index worker (started if need be); `leave` ends the turn. */
  task(
    root: RootIndex,
    request: SearchRequest,
    leave: () => void,
    options: Omit<TaskOptions, "graceMs" | "settle" | "onReport">,
  ): Task {
    const worker = root.index ??= startIndex(root, this.#options, this.#order.length);
    const task = runTask(worker, request, {
      ...options,
      graceMs: this.#options.graceMs ?? 1000,
      settle: (keep) => {
        if (root.inflight === task) root.inflight = null;
        if (!keep && root.index === worker) this.#dropIndex(root); // stuck: start afresh
        leave();
      },
      onReport: (report) => this.indexReport(root, report as IndexReport),
    });
    root.inflight = task;
    return task;
  }

  /** The answers nobody asked for (warm_up.ts), each stopped as soon as a call runs. */
  #warmUp(root: RootIndex, fill: SearchRequest, filled: ScanOutcome): Promise<number> {
    const { running } = this.#calls;
    const newest = filled.collected.first[0]?.modified ?? this.#clock.now();
    const ask = (request: SearchRequest, leave: () => void) =>
      this.task(root, request, leave, warmUpTask(running)).outcome;
    const ready = () => root.status.state === "ready";
    return warmUp({ turns: root.turns, ready, running }, ask, fill, newest);
  }

  /**
   * Events were lost, and with them maybe the runtime's watch of a folder made meanwhile (it
   * watches one when it reads its event): set up again, then the index built again, as
   * Watchman recrawls. Calls walk meanwhile; said once until the root is ready again.
   */
  #rewatch(root: RootIndex): void {
    if (root.status.state === "off") return;
    if (root.status.reason !== LOST) this.#options.log("warning", rebuildLine(root.number));
    this.#teardown(root);
    clearTimeout(root.retry); // a fill due again, say: the new watch's own build replaces it
    this.#watch(root, LOST);
  }

  /** The watch is over: watched again (`retry`), unless the stalls held forbid it. */
  #lost(root: RootIndex, reason: string, retry: boolean | "soon" | "shortly"): void {
    const stalled = root.watch?.stalled ?? false;
    this.#stop(root, reason); // a stalled watch is held by the stalls now (stalls.ts)
    if (!retry) return;
    // Past the stalled watches a server may hold, one more stall: not watched again.
    if (stalled && this.stalls.exhausted) return this.#stop(root, stuckReason(this.stalls.held));
    const ms = { soon: 0, shortly: SHORTLY_MS, true: this.#options.retryMs ?? 60_000 }[`${retry}`];
    later(root, () => this.#watch(root, reason), ms);
  }

  /** Its call on the index abandoned, its watch closed, its index dropped. */
  #teardown(root: RootIndex): void {
    root.inflight?.abandon(new IndexStopped());
    root.inflight = null;
    root.watch?.close();
    root.watch = null;
    this.#dropIndex(root);
  }

  #dropIndex(root: RootIndex): void {
    if (root.index) endIndex(root.index);
    root.index = null;
    root.status.entries = 0;
  }

  /**
   * Back to plain walks for this root, never a stale answer; said once in the logs. A
   * call on the index now is answered by a walk.
   */
  #stop(root: RootIndex, reason: string): void {
    this.#teardown(root);
    if (root.status.state === "off" && root.status.reason === reason) return;
    root.status = { state: "off", entries: 0, reason };
    this.#options.log("warning", offLine(root.number, reason));
  }
}
