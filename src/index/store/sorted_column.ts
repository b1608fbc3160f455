/**
 * A search in a typed column sorted ascending (the journal's positions and times, contract
 * §24a): where values above one begin.
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
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (column[mid]! > value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
