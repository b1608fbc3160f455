/**
 * The background check's pace (contract §18, issue 39: idle means idle). The check cannot
 * stop while the tree is quiet (it looks for what no event reports), so its steps are
 * spaced: each step runs at most {@linkcode CHECK_STEP_MS}, and the next one waits until
 * this root's steps have used no more than its share of one core, measured by the time
 * the steps took. A server's share ({@linkcode CHECK_CORE_SHARE}) is split among its
 * indexed roots, so that an idle server costs the same with any number of roots; a round
 * then takes the round's cost divided by that share (docs/index.md gives them per tree).
 *
 * @module
 */
import { FolderSweep, type Sweepable } from "./folder_sweep.ts";

/**
 * The share of one core a whole server's background checks may use on average: 0.15%, so
 * that with the rest an idle server does (its watches' checks, the collector, which on a
 * two-million-entry index costs about half as much again as the steps' own time) it stays
 * within 0.5% (docs/benchmarks.md, "Idle"; at 0.3% a home-2m service idled at 0.50-0.67%,
 * at 0.2% at 0.33-0.57%).
 */
export const CHECK_CORE_SHARE = 0.0015;
/** The longest a background step runs, in ms (an answer that comes meanwhile waits). */
export const CHECK_STEP_MS = 8;
/** Of each step, the part for the round of folders alone (the rest also checks entries). */
const FOLDERS_PART = 0.25;
/** Each step is counted at least this long: what waking up for it costs, in ms. */
const WAKE_MS = 0.5;
/** The longest wait a timer takes (a longer one fires at once). */
const MAX_WAIT_MS = 2 ** 31 - 1;

/** Options of {@linkcode BackgroundCheck}. */
export interface BackgroundCheckOptions {
  /** This root's share of one core (the server's, split among its roots). */
  share: number;
  /** Told when a round of folders and entries ends (it looked at every one at or after `wholeSince`). */
  onRound?: (wholeSince: number, ended: number) => void;
  /** A clock in ms with sub-ms steps. @default `performance.now` */
  now?: () => number;
  /** The wall clock, for when rounds began and ended. @default `Date.now` */
  wallNow?: () => number;
  /** How the steps are spaced. @default setTimeout */
  later?: (run: () => void, ms: number) => void;
}

/**
 * A root's background check, one paced step at a time, for as long as its worker runs; each
 * round's end is told to `onRound`.
 */
export class BackgroundCheck {
  readonly #index: Sweepable;
  readonly #options: BackgroundCheckOptions;
  readonly #now: () => number;
  readonly #later: (run: () => void, ms: number) => void;
  /** Folders alone, and folders with their entries: each on its own round. */
  readonly #folders: FolderSweep;
  readonly #entries: FolderSweep;

  constructor(index: Sweepable, options: BackgroundCheckOptions) {
    this.#index = index;
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#later = options.later ?? ((run, ms) => void setTimeout(run, ms));
    const clocks = { now: this.#now, ...(options.wallNow ? { wallNow: options.wallNow } : {}) };
    this.#folders = new FolderSweep(clocks);
    this.#entries = new FolderSweep(clocks);
    this.#later(() => this.#step(), 0);
  }

  #step(): void {
    const began = this.#now();
    const ended = this.#entries.lastEnded;
    this.#folders.step(this.#index, { ms: CHECK_STEP_MS * FOLDERS_PART });
    const left = CHECK_STEP_MS - (this.#now() - began);
    this.#entries.step(this.#index, { ms: Math.max(left, 0), entries: true });
    const took = Math.max(this.#now() - began, WAKE_MS);
    const { wholeSince, lastEnded } = this.#entries;
    if (lastEnded !== ended && wholeSince !== null && lastEnded !== null) {
      this.#options.onRound?.(wholeSince, lastEnded);
    }
    this.#later(() => this.#step(), Math.min(took / this.#options.share - took, MAX_WAIT_MS));
  }
}
