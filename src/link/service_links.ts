/**
 * The session's side of its roots' index services (contract §28): per root, whether its
 * service is connected, and why not; each question put to it, answered or given up at its
 * deadline (a service that hangs is let go, and the next call finds or starts another).
 * A link that drops while its service lives (a line it could not read) is made again at
 * the next call, which waits for it a little rather than walk a second time.
 * The connections themselves are the link worker's (link_worker.ts), the only code of the
 * session that may reach a socket or start a process.
 *
 * @module
 */
import type { FromLink, LinkRoot, ToLink } from "./link_messages.ts";
import { type FromService, parseLine, type ServiceFacts, type ToService } from "../wire/mod.ts";
import { Calls } from "../index/mod.ts";
import { type AskOptions, type Question, Questions } from "./questions.ts";

/** Failures in a row after which a root stops asking for a service (its own index answers). */
export const MOST_FAILURES = 3;
/** The least time between two tries to reach a root's service. */
const RETRY_MS = 1000;
/** How long a call waits for a link that dropped to be made again before it walks. */
const REJOIN_MS = 3000;
/**
 * How long a call waits for a link being made (to a service that is there, or one just
 * started: it listens within a tenth of a second of its start on an idle machine, seconds on
 * a loaded one) before it walks: the service answers where its build runs, so that the first
 * call at start-up and the calls of several sessions starting together cost one walk
 * (contract §28a). A service that does not say hello is let go sooner (HELLO_MS).
 */
const JOIN_WAIT_MS = 5000;
/**
 * When a service none answers for is started: at once, unless this session walks (a link
 * that dropped, a service that said to walk); then against its walks (as a live index
 * starts against its calls, call_gate.ts): once none ran for `quietMs`; after `soonMs`, in
 * the first gap; after `latestMs`, anyway.
 */
const START_QUIET = { quietMs: 250, soonMs: 2000, latestMs: 10_000 };

/** A root's link to its service. */
interface Link {
  state: "idle" | "connecting" | "up" | "given up";
  why: string;
  facts?: ServiceFacts;
  failures: number;
  triedAt: number;
  /** It was up and dropped: the next call reconnects at once and waits for it. */
  rejoin: boolean;
  /** A service to start once this session's walks leave the disk: a call walks meanwhile. */
  starting: boolean;
  /** Calls waiting for the link to be up or down. */
  waiters: (() => void)[];
  /** This session's walks of the root under way, and whether its service was told (hold). */
  walks: Map<number, boolean>;
}

/** The link worker's settings: where the sockets are, and how a service is started. */
export type LinkSetup = Omit<Extract<ToLink, { type: "init" }>, "type">;

/** Each root's link to its service, through one link worker. */
export class ServiceLinks {
  readonly #worker: Worker;
  readonly #links: Link[];
  readonly #questions: Questions;
  #next = 1;
  /** This session's walks under way: a service is started at a quiet moment of them. */
  readonly #walking = new Calls();
  /** Services to start at that moment. */
  readonly #starts: (() => void)[] = [];

  readonly #log: (message: string) => void;
  readonly #startArgs: (roots: readonly number[]) => { args: string[]; input: string };

  /**
   * `startArgs`: the arguments that start one service for some of the roots; `log`: the
   * session's log (a service started or joined, a link dropped and why).
   */
  constructor(
    setup: LinkSetup,
    worker: Worker,
    options: {
      startArgs?: (roots: readonly number[]) => { args: string[]; input: string };
      log?: (message: string) => void;
    } = {},
  ) {
    this.#worker = worker;
    // Silent past a question's deadline: let go as below, its drop said (contract §28a).
    this.#questions = new Questions((i, message) => this.#send(i, message), (i, why) => {
      worker.postMessage({ type: "drop", root: i } satisfies ToLink);
      this.#told({ type: "down", root: i, why, retry: true });
    });
    this.#log = options.log ?? (() => {});
    this.#startArgs = options.startArgs ?? (() => ({ args: [], input: "" }));
    this.#links = setup.roots.map(() => ({
      state: "idle",
      why: "its service is not asked yet",
      failures: 0,
      triedAt: -Infinity,
      rejoin: false,
      starting: false,
      waiters: [],
      walks: new Map(),
    }));
    worker.onmessage = (event: MessageEvent<FromLink>) => this.#told(event.data);
    worker.postMessage({ type: "init", ...setup } satisfies ToLink);
  }

  /** Whether root `i`'s service is connected. */
  up(i: number): boolean {
    return this.#links[i]!.state === "up";
  }

  /** Whether root `i` no longer asks for a service (its own index answers it). */
  givenUp(i: number): boolean {
    return this.#links[i]!.state === "given up";
  }

  /** Whether root `i`'s service was ever asked for (a lazy root's first call asks). */
  asked(i: number): boolean {
    return this.#links[i]!.triedAt !== -Infinity;
  }

  /** Why root `i`'s service does not answer now. */
  why(i: number): string {
    return this.#links[i]!.why;
  }

  /** What root `i`'s service said of itself when it was connected. */
  facts(i: number): ServiceFacts | undefined {
    return this.#links[i]!.facts;
  }

  /** Connects root `i`'s service (starting it if none answers), unless tried just now. */
  ensure(i: number, now = Date.now()): void {
    const link = this.#links[i]!;
    if (link.state !== "idle" || (!link.rejoin && now - link.triedAt < RETRY_MS)) return;
    link.state = "connecting";
    link.triedAt = now;
    link.why = "its service is being reached";
    this.#worker.postMessage({ type: "ensure", root: i } satisfies ToLink);
  }

  /**
   * Puts a question to root `i`'s service: its reply, or why there is none (not connected,
   * gone, or silent for `timeoutMs`: the service is then let go; a call waiting its turn at
   * the index is said every second, and waits at most `mostMs` in all). Rejects with the
   * signal's reason when it is aborted (the service is told to stop).
   */
  async ask(
    i: number,
    question: Question,
    options: AskOptions,
  ): Promise<FromService | string> {
    const link = this.#links[i]!;
    if (link.state === "connecting" && link.rejoin) await this.#settled(i, REJOIN_MS);
    else if (link.state === "connecting" && !link.starting) await this.#settled(i, JOIN_WAIT_MS);
    if (!this.up(i)) return this.why(i);
    return await this.#questions.put(i, this.#next++, question, options);
  }

  /**
   * This session walks a call on root `i` now: its service's build gives way to it (told now,
   * or as soon as the link is up) until the returned function is called (contract §28a).
   */
  walking(i: number): () => void {
    const link = this.#links[i]!;
    const id = this.#next++;
    link.walks.set(id, false);
    if (link.state === "up") this.#hold(i, id);
    this.#walking.begin();
    return () => {
      if (!link.walks.has(id)) return;
      const told = link.walks.get(id);
      link.walks.delete(id);
      this.#walking.end(Date.now());
      if (told && link.state === "up") this.#send(i, { t: "release", id });
    };
  }

  /** Runs `start` now, or at the next quiet moment of this session's walks (with others due). */
  #startQuietly(now: boolean, start: () => void): void {
    if (now) return start();
    this.#starts.push(start);
    if (this.#starts.length > 1) return; // a quiet moment is awaited already
    this.#walking.whenQuiet(START_QUIET, () => Date.now(), () => {
      for (const due of this.#starts.splice(0)) due();
    });
  }

  #hold(i: number, id: number): void {
    this.#links[i]!.walks.set(id, true);
    this.#send(i, { t: "hold", id });
  }

  /** Waits until root `i`'s link is up or down, at most `ms`. */
  #settled(i: number, ms: number): Promise<void> {
    const link = this.#links[i]!;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      link.waiters.push(() => (clearTimeout(timer), resolve()));
    });
  }

  close(): void {
    this.#walking.close();
    this.#worker.terminate();
    this.#questions.end("the server is closing");
  }

  #send(i: number, message: ToService): void {
    this.#worker.postMessage(
      { type: "send", root: i, line: JSON.stringify(message) } satisfies ToLink,
    );
  }

  #told(message: FromLink): void {
    if (message.type === "start?") {
      // Started now, its calls waiting for it (it walks them where its build runs); or, while
      // this session walks, once its walks leave the disk to it, its calls walking meanwhile
      // (contract §28a: the first call at start-up is one walk, not a walk beside a build).
      const { roots } = message;
      const now = this.#starts.length === 0 &&
        this.#walking.quietFor(Date.now(), START_QUIET.quietMs);
      for (const r of roots) {
        const link = this.#links[r]!;
        link.starting = !now;
        if (!now) { for (const waiter of link.waiters.splice(0)) waiter(); }
      }
      this.#startQuietly(now, () => {
        let start: ToLink;
        try {
          start = { type: "start", roots, ...this.#startArgs(roots) };
        } catch (err) {
          const why = `its service could not be started (${
            err instanceof Error ? err.name : "error"
          })`;
          start = { type: "unstarted", roots, why };
        }
        this.#worker.postMessage(start);
      });
      return;
    }
    const link = this.#links[message.root]!;
    const name = `root #${message.root + 1}`;
    if (message.type === "up") {
      const { pid, build, sessions } = message.facts;
      const how = message.started ? "started" : "joined";
      this.#log(
        `index: ${name} ${how} its index service (pid ${pid}, build ${build}, ${sessions} session(s)).`,
      );
      link.state = "up";
      link.facts = message.facts;
      link.why = "";
      link.rejoin = false;
      link.starting = false;
      for (const waiter of link.waiters.splice(0)) waiter();
      for (const [id, told] of link.walks) if (!told) this.#hold(message.root, id);
    } else if (message.type === "down") {
      if (link.state === "up" || link.state === "connecting") {
        this.#log(`index: ${name} has no link to its index service: ${message.why}.`);
      }
      this.#lost(message.root, message.why, message.retry);
      link.starting = false;
      for (const waiter of link.waiters.splice(0)) waiter();
    } else {
      let reply: FromService;
      try {
        reply = parseLine<FromService>(message.line);
      } catch (err) {
        // Ended, so that the service stops counting this session, as the worker ends a line
        // it cannot read.
        this.#worker.postMessage({ type: "drop", root: message.root } satisfies ToLink);
        const why = `its service sent a line that could not be read (${(err as Error).message})`;
        return this.#told({ type: "down", root: message.root, why, retry: true });
      }
      if (!("id" in reply)) return;
      // It answered: a later loss counts from one again.
      if (this.#questions.heard(reply)) link.failures = 0;
    }
  }

  /** Root `i`'s service is not connected (any more), for `why`. */
  #lost(i: number, why: string, retry: boolean): void {
    const link = this.#links[i]!;
    // Counted once per link lost, and in a row until the service answers a question (a
    // service that dies after each hello is given up after three, as one that never starts).
    if (link.state === "up" || link.state === "connecting") {
      const wasUp = link.state === "up";
      link.failures++;
      link.why = why;
      link.state = !retry || link.failures >= MOST_FAILURES ? "given up" : "idle";
      link.rejoin = wasUp && link.state === "idle";
      for (const id of link.walks.keys()) link.walks.set(id, false); // released at its end
    }
    this.#questions.end(why, i);
  }
}

/** The roots' link settings, as the worker is given them. */
export type { LinkRoot };
