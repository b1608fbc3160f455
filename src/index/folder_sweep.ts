/**
 * The background check of folder times (contract §18): the runtime drops every change
 * event whose path now leads out of the root (a new link out, a folder swapped for one),
 * so the index goes round the folders it holds, one `lstat` each, and forgets those whose
 * time moved (`HeldTree.recheck`). It runs in steps: one every
 * {@linkcode SWEEP_EVERY_MS} in the background, bounded by time (a share of one core),
 * and one before each indexed answer, bounded by a count of folders, so that on a small
 * tree every answer follows a whole round. docs/index.md has the rates measured.
 *
 * @module
 */

/** How often a background step runs, in ms. */
export const SWEEP_EVERY_MS = 100;
/** How long a background step may take, in ms: 2% of one core. */
export const SWEEP_STEP_MS = 2;
/** How many held folders a step before an answer checks at most. */
export const ANSWER_SWEEP_FOLDERS = 1_000;

/** What the check needs of the index. */
export interface Sweepable {
  /** Record numbers, `0 .. records - 1`. */
  readonly records: number;
  /** Checks the folder of a record if held; whether it looked. */
  recheck(folder: number): boolean;
}

/** Options of {@linkcode FolderSweep}. */
export interface FolderSweepOptions {
  /** A clock in ms with sub-ms steps. @default `performance.now` */
  now?: () => number;
}

/** Goes round the held folders of one index, a step at a time. */
export class FolderSweep {
  readonly #now: () => number;
  #next = 0;

  constructor(options: FolderSweepOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
  }

  /**
   * Checks held folders from where the last step stopped, until `folders` were checked,
   * `ms` passed or the round is complete (every record looked at once). Returns how many
   * were checked.
   */
  step(index: Sweepable, limits: { folders?: number; ms?: number }): number {
    const until = limits.ms === undefined ? Infinity : this.#now() + limits.ms;
    const most = limits.folders ?? Infinity;
    let checked = 0;
    for (let looked = 0; looked < index.records && checked < most; looked++) {
      if (this.#next >= index.records) this.#next = 0;
      if (index.recheck(this.#next++)) checked++;
      if (this.#now() >= until) break;
    }
    return checked;
  }
}
