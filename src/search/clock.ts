/**
 * The clock, injected wherever time is read so that tests can pin it.
 *
 * @module
 */

/** Source of the current time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that starts at `start` and moves `stepMs` forward each time it is read:
 * scan time-outs become deterministic in tests.
 *
 * @example
 * ```ts
 * const clock = steppingClock(0, 10);
 * clock.now(); // 0
 * clock.now(); // 10
 * ```
 */
export function steppingClock(start: number, stepMs: number): Clock {
  let t = start;
  return {
    now() {
      const value = t;
      t += stepMs;
      return value;
    },
  };
}
