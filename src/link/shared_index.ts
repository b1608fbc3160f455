/**
 * A session's scanner when its roots' indexes are shared (contract §28): each call on a
 * root whose service is connected is put to that service, answered from its index or
 * walked here (the service says why); a root whose service is not connected yet walks
 * while it is found or started; a root whose service could not be had (MOST_FAILURES in a
 * row, or a socket folder that fails its check) is answered by this server's own live
 * index, as with `SHARED_INDEX=off`. Never a failed call because of a service: the worst
 * it costs is a walk, which says why. Changes calls read the service's journal, whose
 * clocks (named by the service's run) hold in every session while it lives.
 *
 * @module
 */
import { type ErrorCode, ToolError } from "../errors.ts";
import {
  Answers,
  type IndexStatus,
  type JournalAnswer,
  type JournalQuery,
  type LiveIndex,
} from "../index/mod.ts";
import { type SearchRequest, withTimeSpent } from "../query/mod.ts";
import type { ScanOutcome } from "../walk/mod.ts";
import { type RunOptions, type Scanner, WalkCosts } from "../workers/mod.ts";
import type { ServiceLinks } from "./service_links.ts";
import { type JournalMark, TURN_WAIT_MS } from "../wire/mod.ts";

/** How long a call waits for its service beyond its own deadline (the service's grace). */
const GRACE_MS = 2000;
/** How long a service may be silent during a call (it says each second that it lives). */
const SILENT_MS = 4000;
/** How long a status question may take (a journal question: past its turn, said alive). */
const QUESTION_MS = 3000;

/** The scanner of a session whose roots' indexes are shared. */
export class SharedIndex implements Scanner {
  readonly #links: ServiceLinks;
  readonly #own: LiveIndex;
  readonly #walk: Scanner;
  readonly #order: string[];
  readonly #answers: Answers;
  readonly #marks: (JournalMark | null)[];
  readonly #log: (message: string) => void;
  /** Whether each root's index was said to be ready (once, in the session's log). */
  readonly #readySaid: boolean[];
  /** What this session's last walk of each whole root cost (sent with its questions). */
  readonly #walkCosts = new WalkCosts();

  /**
   * `roots` in order (by path); `own` answers a root whose service could not be had, and
   * `walk` a call its service's index did not answer. `eager`: every root's service now.
   */
  constructor(
    roots: readonly string[],
    links: ServiceLinks,
    own: LiveIndex,
    walk: Scanner,
    eager: boolean,
    log: (message: string) => void = () => {},
  ) {
    this.#log = log;
    this.#readySaid = roots.map(() => false);
    this.#order = [...roots];
    this.#links = links;
    this.#own = own;
    this.#walk = walk;
    this.#answers = new Answers(this.#order);
    this.#marks = roots.map(() => null);
    if (eager) roots.forEach((_, i) => links.ensure(i));
  }

  async run(request: SearchRequest, options: RunOptions = {}): Promise<ScanOutcome> {
    const madeAt = Date.now();
    const path = request.root.path;
    const i = this.#order.indexOf(path);
    if (i < 0 || this.#links.givenUp(i)) return await this.#own.run(request, options);
    this.#links.ensure(i);
    // What a walk here costs: the service weighs it against the rest of a build.
    const walkCost = this.#walkCosts.of(path);
    // A paging sequence's snapshot (`keepAll`) is kept by the service, which answers its
    // later pages from it one page at a time (never the whole sequence over the socket).
    const reply = await this.#links.ask(
      i,
      {
        t: "scan",
        request,
        keepAll: options.keepAll ?? 0,
        ...(walkCost ? { walkCost } : {}),
      },
      {
        // The service says each second that the call is under way: silent for SILENT_MS, it is
        // hung, and the call is walked here with the time left (contract §28a, §19).
        timeoutMs: Math.min(SILENT_MS, request.limits.scanTimeoutMs + GRACE_MS),
        mostMs: TURN_WAIT_MS + request.limits.scanTimeoutMs + GRACE_MS,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      },
    );
    let why: string;
    if (typeof reply === "string") why = `its shared index: ${reply}`;
    else if (reply.t !== "scan") why = "its shared index answered out of turn";
    else if (reply.error) {
      const { code, message, fix, details } = reply.error;
      throw new ToolError(code as ErrorCode, message, fix, details);
    } else if (reply.outcome && reply.walked !== undefined) {
      // Walked by its service, where its index is being built (contract §28a).
      this.#marks[i] = null;
      this.#answers.walk(path, reply.walked, options.onAnswered);
      return reply.outcome;
    } else if (reply.outcome) {
      this.#ready(i);
      this.#marks[i] = reply.journal;
      this.#answers.index(path, options.onAnswered);
      return reply.outcome;
    } else why = reply.walk ?? "its shared index did not answer";
    this.#marks[i] = null;
    this.#answers.walk(path, why, options.onAnswered);
    // While it walks, its service's build gives way (the two would read the disk at once).
    const release = this.#links.walking(i);
    try {
      const later = withTimeSpent(request, Date.now() - madeAt);
      return await this.#walkCosts.walk(this.#walk, later, options);
    } finally {
      release();
    }
  }

  /** The root's journal as of its service's last answer (clocks name the service's run). */
  journalOf(path: string): JournalMark | { epoch: number; position: number } | null {
    const i = this.#order.indexOf(path);
    if (i < 0 || this.#links.givenUp(i)) return this.#own.journalOf(path);
    return this.#links.up(i) ? this.#marks[i]! : null;
  }

  /** A changes call's question, put to the root's service's journal. */
  async askJournal(
    path: string,
    query: JournalQuery,
    signal?: AbortSignal,
  ): Promise<{ answer: JournalAnswer; epoch: number; run?: string } | string> {
    const i = this.#order.indexOf(path);
    if (i < 0 || this.#links.givenUp(i)) return await this.#own.askJournal(path, query, signal);
    this.#links.ensure(i);
    const reply = await this.#links.ask(i, { t: "journal", query }, {
      // Said alive each second while it waits for the index's barrier: let go when silent.
      timeoutMs: SILENT_MS,
      mostMs: TURN_WAIT_MS + QUESTION_MS + GRACE_MS,
      ...(signal ? { signal } : {}),
    });
    if (typeof reply === "string") return `its shared index: ${reply}`;
    if (reply.t === "journal" && reply.journal !== undefined) this.#marks[i] = reply.journal;
    if (reply.t !== "journal" || !reply.answer) {
      return reply.t === "journal" && reply.why ? reply.why : "its shared index did not answer";
    }
    return { answer: reply.answer, epoch: reply.epoch!, ...(reply.run ? { run: reply.run } : {}) };
  }

  /**
   * Each root's index: its service's (asked now, its link made again if it dropped), or this
   * server's own, and why.
   */
  async status(): Promise<IndexStatus[]> {
    const own = this.#own.status();
    return await Promise.all(this.#order.map(async (path, i): Promise<IndexStatus> => {
      if (this.#links.givenUp(i)) return { ...own[i]!, shared: { reason: this.#links.why(i) } };
      const mine = this.#answers.of(path);
      if (!this.#links.asked(i)) {
        return { state: "off", entries: 0, reason: "not used yet", ...mine };
      }
      // Its link is made again if it dropped (at most once a second): a root whose service
      // failed to start is not shown `starting` for good to one who only looks.
      this.#links.ensure(i);
      const reply = await this.#links.ask(i, { t: "status" }, { timeoutMs: QUESTION_MS });
      if (typeof reply === "string" || reply.t !== "status") {
        const reason = typeof reply === "string" ? reply : "it answered out of turn";
        return { state: "starting", entries: 0, ...mine, shared: { reason } };
      }
      if (reply.journal !== undefined) this.#marks[i] = reply.journal;
      if (reply.status.state === "ready") this.#ready(i);
      const { answers: _all, lastWalk: _last, ...index } = reply.status;
      const { sessions, startedAt, build, rssBytes } = reply.facts;
      const since = new Date(startedAt).toISOString();
      const memory = rssBytes === undefined ? {} : { rssBytes };
      return { ...index, ...mine, shared: { sessions, since, build, ...memory } };
    }));
  }

  /** Says once in the log that root `i`'s index is ready in its service (contract §28a). */
  #ready(i: number): void {
    if (this.#readySaid[i]) return;
    this.#readySaid[i] = true;
    this.#log(`index: root #${i + 1} is ready in its index service; answers come from its memory.`);
  }

  close(): void {
    this.#links.close();
    this.#own.close(); // and the walk with it
  }
}
