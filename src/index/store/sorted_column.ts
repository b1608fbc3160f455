/**
 * Searches in a typed column sorted ascending (the journal's positions and times, contract
 * §24a; a root's time order, issue 59): where values above one begin, or at or above it.
 *
 * @module
 */

/**
 * The first index in `[lo, hi)` whose value in `column` is above `value` (`hi` when none);
 * the column is sorted ascending there.
 *
 * @example
 * ```ts
 * firstAbove(new Int32Array([1, 2, 2, 5]), 0, 4, 2); // 3
 * ```
 */
export function firstAbove(column: ArrayLike<number>, lo: number, hi: number, value: number) {
  return firstPast(column, lo, hi, (v) => v > value);
}

/** The first index of ascending `times` whose value is at or above `t` (its length when none). */
export function firstAtOrAbove(times: Float64Array, t: number): number {
  return firstPast(times, 0, times.length, (v) => v >= t);
}

/** The first index in `[lo, hi)` whose value is `past` (`hi` when none): a binary search. */
function firstPast(
  column: ArrayLike<number>,
  lo: number,
  hi: number,
  past: (value: number) => boolean,
): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (past(column[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
