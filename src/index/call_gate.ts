/**
 * The calls running now, as the live index's background work sees them (contract §18:
 * indexing must not make calls noticeably slower): a count shared with the index workers,
 * whose fills wait while it is above 0 (`ScanTask.giveWay`), and a way to start work only
 * once no call has run for a while.
 *
 * @module
 */

/** How {@linkcode Calls.whenQuiet} waits between its looks (tests pass their own). */
export interface Timers {
  set(look: () => void, ms: number): unknown;
  clear(id: unknown): void;
}

const REAL_TIMERS: Timers = {
  set: (look, ms) => setTimeout(look, ms),
  clear: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

/** The calls running now, and when the last one ended. */
export class Calls {
  /** Calls running now, on a `SharedArrayBuffer` the fills read. */
  readonly running = new Int32Array(new SharedArrayBuffer(4));
  readonly #timers: Timers;
  #lastEnd = -Infinity;
  #timer: unknown;
  /** A `whenQuiet` waiting for the gap after its `soonMs`: run as the last call ends. */
  #atGap: ((now: number) => void) | null = null;

  /** `timers`: how the looks of `whenQuiet` are spaced. @default setTimeout */
  constructor(timers: Timers = REAL_TIMERS) {
    this.#timers = timers;
  }

  /** A call starts. */
  begin(): void {
    Atomics.add(this.running, 0, 1);
  }

  /** A call ends at `now`: a fill waiting for it goes on. */
  end(now: number): void {
    Atomics.sub(this.running, 0, 1);
    Atomics.notify(this.running, 0);
    this.#lastEnd = now;
    if (Atomics.load(this.running, 0) === 0) this.#atGap?.(now);
  }

  /** Whether no call is running at `now` and none has ended for `quietMs`. */
  quietFor(now: number, quietMs: number): boolean {
    return Atomics.load(this.running, 0) === 0 && now - this.#lastEnd >= quietMs;
  }

  /**
   * Runs `then` at the first quiet moment, checked every 50 ms by `now`: once no call is
   * running and none has ended for `quietMs`; after `soonMs`, as soon as no call is running
   * (a steady stream of calls has gaps: the moment its last running call ends is one, even
   * between two looks); after `latestMs`, whatever the calls. A server asked something as it
   * starts answers that first, and calls do not hold `then` back.
   */
  whenQuiet(
    times: { quietMs: number; soonMs: number; latestMs: number },
    now: () => number,
    then: () => void,
  ): void {
    const from = now();
    const run = () => {
      this.#atGap = null;
      this.#timers.clear(this.#timer);
      then();
    };
    this.#atGap = (t) => {
      if (t - from >= times.soonMs) run();
    };
    const look = () => {
      const t = now();
      const idle = Atomics.load(this.running, 0) === 0;
      const quiet = this.quietFor(t, times.quietMs);
      if (quiet || (idle && t - from >= times.soonMs) || t - from >= times.latestMs) run();
      else this.#timer = this.#timers.set(look, 50);
    };
    this.#timer = this.#timers.set(look, times.quietMs);
  }

  /** Forgets a `whenQuiet` not yet run. */
  close(): void {
    this.#atGap = null;
    this.#timers.clear(this.#timer);
  }
}
