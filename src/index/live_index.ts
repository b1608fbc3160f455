/**
 * The live index (contract §18): per root, a watch worker that reports changes and an
 * index worker that answers the root's scans from memory, kept true by them. Once the
 * watch runs, the index is filled by one scan of the root (index_words.ts) that gives way
 * to calls; then the root is `ready`. Only a ready root's scans go to its index; any other
 * (starting, building, off) is walked on the pool, never answered stale. With `eager`
 * (`INDEX=on`) every root starts with the server; else a root's first call starts it.
 *
 * An indexed answer passes a barrier first (contract §18): the watch worker's cookie is
 * back and every change before it is applied (cookies.ts); no cookie within `barrierMs`,
 * and the call walks while the watch starts again. A loss (the runtime's `rescan`, or a run
 * of events long enough to have overflowed the kernel's queue) makes the root walk until
 * its index has learned every entry again. A root whose index cannot be proved up to date
 * (no private folder to write cookies in; Windows, whose watch gives no order across
 * folders; a FIFO or device file the runtime's watcher would open) is never indexed.
 *
 * An indexed call keeps every promise a walk keeps (contract §12, §19): its time counts
 * from when it was made, waiting for the index included; it waits for the index at most
 * `waitMs`, then walks; cancelling it stops its scan and leaves the index intact; if the
 * index goes away under it (the watch breaks, the worker fails), it is answered by a walk.
 * Every call says who answered it, and why a walk did (answers.ts).
 *
 * @module
 */
import type { Root } from "../config.ts";
import { type Clock, systemClock } from "../ports/mod.ts";
import { type ScanOutcome, WHOLE } from "../walk/mod.ts";
import {
  failureKind,
  HungRoots,
  type RunOptions,
  type Scanner,
  WalkCosts,
} from "../workers/mod.ts";
import { type SearchRequest, withTimeSpent } from "../query/mod.ts";
import { Answers, whyWalking } from "./answers.ts";
import { Calls } from "./call_gate.ts";
import { NO_ORDER, noCookies } from "./index_words.ts";
import type { IndexStatus, LiveIndexOptions, RootState } from "./live_index_options.ts";
import { IndexStopped, RootKeeper } from "./root_keeper.ts";
import { indexEnd, type RootIndex } from "./root_record.ts";
import type { JournalAnswer, JournalQuery } from "./journal/mod.ts";
import { awaitBuild, buildLeftMs } from "./build_wait.ts";
import { JOURNAL_REPLY_MS, journalReply } from "./journal_reply.ts";

/**
 * With `eager`, roots start once no call has run for 250 ms; after 2 s, in the first gap
 * between calls; after 30 s, whatever the calls (call_gate.ts).
 */
const START_TIMES = { quietMs: 250, soonMs: 2000, latestMs: 30_000 };

/** A scanner that answers from a live index where it can, and walks where it cannot. */
export class LiveIndex implements Scanner {
  readonly #walk: Scanner;
  readonly #options: LiveIndexOptions;
  readonly #hung: HungRoots;
  readonly #clock: Clock;
  readonly #keeper: RootKeeper;
  readonly #order: string[];
  /** Calls running now: the fills wait for them, and eager starts for a quiet moment. */
  readonly #calls = new Calls();
  readonly #answers: Answers;
  /** Why no root is indexed at all (no barrier can be made here), or `null`. */
  readonly #unwatched: string | null;
  /** What the last walk of each whole root cost: what a call on a build weighs. */
  readonly #walkCosts = new WalkCosts();

  /** `walk` answers whatever the index cannot; `roots` are numbered for the logs. */
  constructor(walk: Scanner, roots: readonly Root[], options: LiveIndexOptions) {
    this.#walk = walk;
    this.#options = options;
    this.#hung = options.hungRoots ?? new HungRoots();
    this.#clock = options.clock ?? systemClock;
    this.#order = roots.map((r) => r.path);
    this.#answers = new Answers(this.#order);
    this.#keeper = new RootKeeper(roots, options, this.#calls);
    this.#unwatched = options.cookies.path === null
      ? noCookies(options.cookies.why)
      : Deno.build.os === "windows"
      ? NO_ORDER
      : null;
    if (this.#unwatched !== null) {
      options.log("warning", `index: no root is indexed: ${this.#unwatched}.`);
    } else if (options.eager) {
      const start = () => roots.forEach((root) => this.#keeper.rootIndex(root));
      this.#calls.whenQuiet(START_TIMES, () => this.#clock.now(), start);
    }
  }

  async run(request: SearchRequest, options: RunOptions = {}): Promise<ScanOutcome> {
    const madeAt = this.#clock.now();
    const path = request.root.path;
    // Eager roots start once calls are quiet; a lazy root starts on its first call.
    const root = this.#options.eager || this.#unwatched !== null
      ? this.#keeper.get(path)
      : this.#keeper.rootIndex(request.root);
    // A build that ends sooner than a walk is waited for (a waiting call holds no fill back),
    // at most half the call's deadline (a walk has the rest if the build is late), whatever a
    // session says its walk costs.
    const cost = options.walkCost ?? this.#walkCosts.of(path);
    if (root && cost) {
      const left = buildLeftMs(root, cost, this.#clock.now());
      const most = Math.min(cost.ms, request.limits.scanTimeoutMs / 2);
      if (left !== null && left <= cost.ms) await awaitBuild(root, most, options.signal);
    }
    this.#calls.begin(); // fills give way until the call is answered
    try {
      let why = whyWalking(this.#statusOf(path));
      if (root?.status.state === "ready") {
        const answer = await this.#fromIndex(root, request, madeAt, options);
        if (typeof answer !== "string") {
          this.#answers.index(path, options.onAnswered);
          return answer;
        }
        why = answer;
      }
      this.#answers.walk(path, why, options.onAnswered);
      const later = withTimeSpent(request, this.#clock.now() - madeAt);
      return await this.#walkCosts.walk(this.#walk, later, options);
    } finally {
      this.#calls.end(this.#clock.now());
    }
  }

  /**
   * The root's journal position as of its index's last answer, and its epoch (contract §24),
   * while its index is ready; `null` otherwise (its clock then names a time only).
   */
  journalOf(path: string): { epoch: number; position: number } | null {
    const root = this.#keeper.get(path);
    const journal = root?.status.journal;
    if (root?.status.state !== "ready" || !journal || journal.start === null) return null;
    return { epoch: root.epoch, position: journal.position };
  }

  /**
   * Puts a changes call's question to the root's journal, after the barrier (so every
   * change made before the call is in it): its answer with the journal's epoch, or why
   * the journal cannot answer (the root is not ready, the barrier did not pass).
   */
  async askJournal(
    path: string,
    query: JournalQuery,
    signal?: AbortSignal,
  ): Promise<{ answer: JournalAnswer; epoch: number } | string> {
    const root = this.#keeper.get(path);
    if (!root || root.status.state !== "ready") return whyWalking(this.#statusOf(path));
    this.#calls.begin();
    const leave = await root.turns.take(this.#options.waitMs ?? 1000, signal);
    try {
      if (!leave) return "its index was busy with another call";
      const passed = await root.watch?.barrier(this.#options.barrierMs ?? 2000, signal);
      if (signal?.aborted) throw signal.reason;
      if (!passed || root.status.state !== "ready" || !root.index) return whyWalking(root.status);
      const epoch = root.epoch;
      const worker = root.index;
      const reply = await journalReply(worker, query, JOURNAL_REPLY_MS, indexEnd(worker));
      if (reply === null && root.index !== worker) return whyWalking(root.status); // dropped
      if (reply === null) return "its journal did not answer in time";
      this.#keeper.indexReport(root, reply.report);
      return { answer: reply.answer, epoch };
    } finally {
      leave?.();
      this.#calls.end(this.#clock.now());
    }
  }

  /** Each root's index, in the order of the roots, with who answered its calls. */
  status(): IndexStatus[] {
    return this.#order.map((path) => ({ ...this.#statusOf(path), ...this.#answers.of(path) }));
  }

  #statusOf(path: string): RootState {
    if (this.#unwatched !== null) return { state: "off", entries: 0, reason: this.#unwatched };
    const root = this.#keeper.get(path);
    if (root) {
      const { readFromDisk } = root;
      return root.status.state === "off" || !readFromDisk
        ? root.status
        : { ...root.status, readFromDisk };
    }
    return this.#options.eager
      ? { state: "starting", entries: 0 }
      : { state: "off", entries: 0, reason: "not used yet" };
  }

  /**
   * A call walked elsewhere on these roots runs now (a session of an index service, walking
   * while the index is built): the fills give way to it as to a call of this index, until
   * the returned function is called (once).
   */
  hold(): () => void {
    this.#calls.begin();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#calls.end(this.#clock.now());
    };
  }

  close(): void {
    this.#calls.close();
    this.#keeper.close();
    this.#walk.close();
  }

  /** The answer from the index, or why the call is to walk instead. */
  async #fromIndex(
    root: RootIndex,
    request: SearchRequest,
    madeAt: number,
    options: RunOptions,
  ): Promise<ScanOutcome | string> {
    const { signal, onProgress, keepAll = 0 } = options;
    const leave = await root.turns.take(this.#options.waitMs ?? 1000, signal);
    if (!leave) return "its index was busy with another call";
    let handedOver = false; // to the task, which leaves when its worker is done
    try {
      const barrierMs = this.#options.barrierMs ?? 2000;
      const passed = await root.watch?.barrier(barrierMs, signal);
      if (signal?.aborted) throw signal.reason;
      // Not passed (the watch stalled, or its root folder is not the one watched any more):
      // the watch was stopped, and the root's reason says why.
      if (!passed || root.status.state !== "ready") return whyWalking(root.status);
      const task = this.#keeper.task(
        root,
        withTimeSpent(request, this.#clock.now() - madeAt),
        leave,
        {
          plan: { share: WHOLE, keepAll },
          signal: signal ?? new AbortController().signal,
          onProgress,
          keepOnCancel: true,
        },
      );
      handedOver = true;
      return await this.#hung.track(request.root.path, () => task.outcome);
    } catch (err) {
      if (signal?.aborted) throw err;
      // The index went away under the call, or its worker failed: a walk answers.
      if (err instanceof IndexStopped) return "its index went away during the call";
      const kind = failureKind(err);
      if (kind === null) throw err;
      if (kind !== "IndexUnsettled") {
        this.#options.log("warning", `index: root #${root.number}'s answer failed (${kind}).`);
      }
      return kind === "IndexUnsettled"
        ? "the tree kept changing under its indexed answer"
        : `its indexed answer failed (${kind})`;
    } finally {
      if (!handedOver) leave();
    }
  }
}
