/**
 * The service's walks (contract §28a, "the first minute is one walk"): a call on a root
 * whose index is being built, and will not be ready before a walk would end, is walked
 * here, where the build runs (which gives way to it: the live index counts it as a call),
 * not in its session. Calls that would walk alike (walk/joint.ts: the same start,
 * excludes, ignore files, depth and limits) share one walk, each judged by its own filter
 * into its own page: three sessions asking at once cost one walk, not three beside the
 * build. A call that comes while such a walk has run less than `joinMs` joins it: that
 * walk starts again with it (what it had read is read once more); a later one starts a
 * walk of its own. A call that comes while no build runs (its index off, its watch lost)
 * is walked by its session, as before ({@linkcode WalkInSession}).
 *
 * @module
 */
import { type JoinedRequest, jointKey, type ScanOutcome } from "../walk/mod.ts";
import { type SearchRequest, withTimeSpent } from "../query/mod.ts";
import type { RunOptions, Scanner } from "../workers/mod.ts";
import { WalkInSession } from "./service_session.ts";

/** How long a walk may have run and still start again with a call that would share it. */
const JOIN_MS = 1000;
/** The share of a whole walk's cost after which a walk no longer starts again for a call. */
const JOIN_SHARE = 0.2;

/** One call waiting for a joint walk's outcome. */
interface Joiner {
  request: SearchRequest;
  options: RunOptions;
  /** When it came (`performance.now()`): its deadline counts from there. */
  came: number;
  resolve(outcome: ScanOutcome): void;
  reject(reason: unknown): void;
  done: boolean;
  /** The walk it waits for now (another once its walk starts again with a later call). */
  joint: Joint | null;
}

/** One walk under way, and the calls it answers. */
interface Joint {
  joiners: Joiner[];
  started: number;
  /** Stops the walk: every call left, or it starts again with one more. */
  stop: AbortController;
}

/** Options of {@linkcode JointWalks}. */
export interface JointWalksOptions {
  /** Makes the walks of one root, each worker reading that root alone (one per root, kept). */
  newScanner(rootPath: string): Scanner;
  /** Whether the root's calls are walked here now (its index is being built). */
  walksHere(rootPath: string): boolean;
  /** How long a walk may have run and still start again with a call. Default 1000 ms. */
  joinMs?: number;
}

/** Walks the calls of a service's roots while their indexes are built, alike ones at once. */
export class JointWalks implements Scanner {
  readonly #options: JointWalksOptions;
  /** The newest walk of each key, while it may still be joined. */
  readonly #open = new Map<string, Joint>();
  readonly #scanners = new Map<string, Scanner>();

  constructor(options: JointWalksOptions) {
    this.#options = options;
  }

  run(request: SearchRequest, options: RunOptions = {}): Promise<ScanOutcome> {
    if (!this.#options.walksHere(request.root.path)) return Promise.reject(new WalkInSession());
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    return new Promise<ScanOutcome>((resolve, reject) => {
      const joiner: Joiner = {
        request,
        options,
        came: performance.now(),
        resolve,
        reject,
        done: false,
        joint: null,
      };
      const key = jointKey(request);
      const open = key === null ? undefined : this.#open.get(key);
      const joiners = open && this.#joinable(open, options) ? open.joiners : [];
      if (open && joiners.length > 0) open.stop.abort(); // it starts again with this call
      const joint: Joint = {
        joiners: [...joiners, joiner],
        started: performance.now(),
        stop: new AbortController(),
      };
      for (const j of joint.joiners) j.joint = joint;
      if (key !== null) this.#open.set(key, joint);
      options.signal?.addEventListener("abort", () => this.#leave(joiner), { once: true });
      void this.#walk(joint, key);
    });
  }

  /** Whether `open` may still start again with one more call. */
  #joinable(open: Joint, options: RunOptions): boolean {
    if (open.stop.signal.aborted) return false;
    const cost = options.walkCost?.ms;
    const most = Math.min(this.#options.joinMs ?? JOIN_MS, cost ? cost * JOIN_SHARE : Infinity);
    // Never later than twice that after its first call came: no call waits on restarts.
    const now = performance.now();
    return now - open.started <= most && now - open.joiners[0]!.came <= 2 * most;
  }

  /** A call left (cancelled): answered at once; the walk stops once no call is left. */
  #leave(joiner: Joiner): void {
    this.#settle(joiner, () => joiner.reject(joiner.options.signal?.reason));
    const joint = joiner.joint;
    if (joint?.joiners.every((j) => j.done)) joint.stop.abort();
  }

  #settle(joiner: Joiner, give: () => void): void {
    if (joiner.done) return;
    joiner.done = true;
    give();
  }

  async #walk(joint: Joint, key: string | null): Promise<void> {
    const now = performance.now();
    const live = joint.joiners.filter((j) => !j.done);
    // Each call's deadline counts from when it came; the walk keeps the nearest of them
    // (its call first, the others joined to it).
    const left = live.map((j) => withTimeSpent(j.request, now - j.came));
    const order = [...left.keys()].sort((a, b) =>
      left[a]!.limits.scanTimeoutMs - left[b]!.limits.scanTimeoutMs
    );
    const first = order[0]!;
    const joined: JoinedRequest[] = order.slice(1).map((i) => ({
      request: left[i]!,
      keepAll: live[i]!.options.keepAll ?? 0,
    }));
    const main = live[first]!;
    try {
      const outcome = await this.#scannerOf(main.request.root.path).run(left[first]!, {
        signal: joint.stop.signal,
        keepAll: main.options.keepAll ?? 0,
        ...(main.options.onProgress ? { onProgress: main.options.onProgress } : {}),
        ...(joined.length > 0 ? { joined } : {}),
      });
      const { joined: theirs, ...own } = outcome;
      order.forEach((i, at) => {
        const o = at === 0 ? own : theirs?.[at - 1];
        // A share that hung says nothing of the joined calls: their sessions walk them.
        this.#settle(
          live[i]!,
          () => o ? live[i]!.resolve(o) : live[i]!.reject(new WalkInSession()),
        );
      });
    } catch (err) {
      // Stopped to start again with another call: that walk answers these calls.
      if (joint.stop.signal.aborted && joint.joiners.some((j) => !j.done)) return;
      for (const j of live) this.#settle(j, () => j.reject(err));
    } finally {
      if (key !== null && this.#open.get(key) === joint) this.#open.delete(key);
    }
  }

  #scannerOf(rootPath: string): Scanner {
    let scanner = this.#scanners.get(rootPath);
    if (!scanner) this.#scanners.set(rootPath, scanner = this.#options.newScanner(rootPath));
    return scanner;
  }

  close(): void {
    for (const joint of this.#open.values()) joint.stop.abort();
    this.#open.clear();
    for (const scanner of this.#scanners.values()) scanner.close();
    this.#scanners.clear();
  }
}
