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
