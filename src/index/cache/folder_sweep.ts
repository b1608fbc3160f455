/**
 * The background check of what events may not say (contract §18): the runtime drops every
 * change event whose path now leads out of the root (a new link out, a folder swapped for
 * one), and some changes raise no event for the name the index holds (a file changed
 * through another hard link, a write through a memory map, `touch -h` on a link). So the
 * index goes round the folders it holds, one `lstat` each, and forgets those whose time
 * moved (`HeldTree.recheck`); and, with `entries`, round every held entry's stat too
 * (`TreeCache.recheckEntries`). It runs in steps, each sweep on its own round: in the
 * background, steps bounded by time and spaced so that a whole server spends a bounded
 * share of one core on them (background_check.ts); and one with each indexed answer,
 * bounded by a count of folders: before it on a small tree, so that every answer follows a
 * whole round of folders, after it on a bigger one. docs/index.md has the rates measured.
 *
 * @module
 */
import { CALL_WAIT_MS } from "./quiet_turn.ts";

/** How many held folders the step with an answer checks at most. */
export const ANSWER_SWEEP_FOLDERS = 1_000;

/** How many owed folders one task checks, so that a call that comes waits little. */
export const OWED_CHUNK = 100;

/** What the check needs of the index. */
export interface Sweepable {
  /** Record numbers, `0 .. records - 1`. */
  readonly records: number;
  /** Checks the folder of a record if held; whether it looked. */
  recheck(folder: number): boolean;
  /**
   * Checks a held folder's entries from the `from`-th on until `until()`; where to go on,
   * or -1 when done.
   */
  recheckEntries?(folder: number, from: number, until: () => boolean): number;
}

/** Options of {@linkcode FolderSweep}. */
export interface FolderSweepOptions {
  /** A clock in ms with sub-ms steps. @default `performance.now` */
  now?: () => number;
  /** The wall clock, for when a round began. @default `Date.now` */
  wallNow?: () => number;
  /** Runs `task` in `ms` (the owed folders' turns). @default `setTimeout` */
  later?: (task: () => void, ms: number) => void;
}

/** Goes round the held folders of one index, a step at a time. */
export class FolderSweep {
  readonly #now: () => number;
  readonly #wallNow: () => number;
  readonly #later: (task: () => void, ms: number) => void;
  #next = 0;
  #owed = 0;
  #paying = false;
  /** A folder whose entries are being checked, and where to go on. */
  #entries: { folder: number; from: number } | null = null;
  /** When the round under way began, and when the last whole one did (or `null`). */
  #roundBegan: number;
  #wholeSince: number | null = null;
  #lastEnded: number | null = null;

  constructor(options: FolderSweepOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#wallNow = options.wallNow ?? Date.now;
    this.#later = options.later ?? ((task, ms) => void setTimeout(task, ms));
    this.#roundBegan = this.#wallNow();
  }

  /**
   * When the last whole round began (wall clock, ms): every held folder, and with
   * `entries` every held entry, was checked at or after it. `null` until one ends.
   */
  get wholeSince(): number | null {
    return this.#wholeSince;
  }

  /** When the last whole round ended (wall clock, ms), or `null` until one does. */
  get lastEnded(): number | null {
    return this.#lastEnded;
  }

  /**
   * Checks held folders (and, with `entries`, their held entries) from where the last
   * step stopped, until `folders` were checked, `ms` passed or the round is complete
   * (every record looked at once). Returns how many folders were checked.
   */
  step(index: Sweepable, limits: { folders?: number; ms?: number; entries?: boolean }): number {
    const until = limits.ms === undefined ? Infinity : this.#now() + limits.ms;
    const timeUp = () => this.#now() >= until;
    const most = limits.folders ?? Infinity;
    const entries = limits.entries === true && index.recheckEntries !== undefined;
    if (entries && this.#entries !== null) {
      const { folder, from } = this.#entries;
      const next = index.recheckEntries!(folder, from, timeUp);
      this.#entries = next < 0 ? null : { folder, from: next };
      if (next >= 0) return 0;
    }
    let checked = 0;
    for (let looked = 0; looked < index.records && checked < most; looked++) {
      if (this.#next >= index.records) this.#wrap();
      const folder = this.#next++;
      if (index.recheck(folder)) {
        checked++;
        if (entries) {
          const next = index.recheckEntries!(folder, 0, timeUp);
          if (next >= 0) {
            this.#entries = { folder, from: next };
            break;
          }
        }
      }
      if (timeUp()) break;
    }
    if (this.#next >= index.records && this.#entries === null) this.#wrap();
    return checked;
  }

  /**
   * The step that goes with an answer: {@linkcode ANSWER_SWEEP_FOLDERS} folders. Where that is
   * a whole round (a tree of at most that many records) it is taken now, before the answer,
   * which then follows a whole round. Otherwise it is owed, and paid once no call runs
   * (`busy()`), {@linkcode OWED_CHUNK} folders a task: it moves the round on as much, with
   * neither the answer nor the next call waiting for it (issue 59: 1,000 folders' `lstat`s
   * were 6 of an answer's 12 ms on 500k).
   */
  withAnswer(index: Sweepable, busy: () => boolean): void {
    if (index.records <= ANSWER_SWEEP_FOLDERS) {
      this.step(index, { folders: ANSWER_SWEEP_FOLDERS });
      return;
    }
    this.#owed = Math.min(this.#owed + ANSWER_SWEEP_FOLDERS, index.records);
    if (this.#paying) return;
    this.#paying = true;
    const pay = () => {
      if (busy()) return this.#later(pay, CALL_WAIT_MS);
      const checked = this.step(index, { folders: Math.min(this.#owed, OWED_CHUNK) });
      this.#owed = checked === 0 ? 0 : this.#owed - checked;
      if (this.#owed > 0) this.#later(pay, 0);
      else this.#paying = false;
    };
    this.#later(pay, 0);
  }

  /** Folders owed by answers (on a tree bigger than one step), not checked yet. */
  get owed(): number {
    return this.#owed;
  }

  /** A round is complete: the next one begins now. */
  #wrap(): void {
    this.#next = 0;
    this.#wholeSince = this.#roundBegan;
    this.#roundBegan = this.#lastEnded = this.#wallNow();
  }
}
