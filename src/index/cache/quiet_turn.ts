/**
 * Work a root's index worker does ahead of the next question, in a quiet moment (issue 59:
 * the time order's merges, 27-45 ms on 1.8 million files, and its remakes, about 250 ms,
 * were paid inside the call that found them due): once no change has come for a while, or
 * changes have kept coming for long enough, and no call runs.
 *
 * @module
 */

/** How long after the last change the work waits, in ms (a burst's events come closer). */
export const QUIET_MS = 200;
/** How long a steady stream of changes may put the work off, in ms. */
export const QUIET_AT_MOST_MS = 2_000;
/** How long the work waits when a call runs before it looks again, in ms. */
export const CALL_WAIT_MS = 10;

/** Options of {@linkcode QuietTurn}. */
export interface QuietTurnOptions {
  /** A clock in ms. @default `performance.now` */
  now?: () => number;
  /** Runs `task` in `ms`. @default `setTimeout` */
  later?: (task: () => void, ms: number) => void;
}

/** Runs `work` once things are quiet after each change ({@linkcode QuietTurn.poke}). */
export class QuietTurn {
  readonly #work: () => void;
  readonly #busy: () => boolean;
  readonly #now: () => number;
  readonly #later: (task: () => void, ms: number) => void;
  /** When the first change not yet worked on came, and the last; `NaN`: none waits. */
  #first = NaN;
  #last = NaN;

  /** `busy()`: whether a call runs now (the work then waits for it). */
  constructor(work: () => void, busy: () => boolean, options: QuietTurnOptions = {}) {
    this.#work = work;
    this.#busy = busy;
    this.#now = options.now ?? (() => performance.now());
    this.#later = options.later ?? ((task, ms) => void setTimeout(task, ms));
  }

  /** Something changed: the work runs once things are quiet. */
  poke(): void {
    const now = this.#now();
    this.#last = now;
    if (!Number.isNaN(this.#first)) return; // a turn is already waiting
    this.#first = now;
    this.#later(this.#fire, QUIET_MS);
  }

  #fire = (): void => {
    const now = this.#now();
    const wait = Math.min(this.#last + QUIET_MS, this.#first + QUIET_AT_MOST_MS) - now;
    if (wait > 0) return this.#later(this.#fire, wait);
    if (this.#busy()) return this.#later(this.#fire, CALL_WAIT_MS);
    this.#first = this.#last = NaN; // changes from now on wait for a turn of their own
    this.#work();
  };
}
