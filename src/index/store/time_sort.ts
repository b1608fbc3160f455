/**
 * Times sorted with what each belongs to carried along (the time order of
 * index/focus/time_order.ts, issue 59): a radix sort of whole milliseconds.
 *
 * @module
 */

/** The widest span of whole milliseconds sorted by three 16-bit digits. */
const RADIX_SPAN = 2 ** 48;

/**
 * `times` ascending with `owners` carried along: a least-significant-digit radix sort of
 * whole milliseconds (three 16-bit digits of their distance from the earliest), or a
 * comparison sort when a time is not whole or the span is wider. Either array may be
 * written over: use the two returned.
 */
export function sortByTime(times: Float64Array, owners: Int32Array): [Float64Array, Int32Array] {
  const n = times.length;
  let min = Infinity, max = -Infinity, whole = true;
  for (let i = 0; i < n; i++) {
    const t = times[i]!;
    if (t < min) min = t;
    if (t > max) max = t;
    whole &&= Number.isInteger(t);
  }
  if (n < 2) return [times, owners];
  if (!whole || max - min >= RADIX_SPAN) {
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => times[a]! - times[b]!);
    const sorted = new Float64Array(n), carried = new Int32Array(n);
    order.forEach((i, k) => {
      sorted[k] = times[i]!;
      carried[k] = owners[i]!;
    });
    return [sorted, carried];
  }
  // Sorted in place of `times` (their distances from the earliest, then the times again).
  for (let i = 0; i < n; i++) times[i] = times[i]! - min;
  let keys: Float64Array = times, from: Int32Array = owners;
  let keysTo: Float64Array = new Float64Array(n), to: Int32Array = new Int32Array(n);
  const counts = new Uint32Array(65_537);
  for (let shift = 1; shift < RADIX_SPAN; shift *= 65_536) {
    if (max - min < shift) break;
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const d = (Math.floor(keys[i]! / shift) % 65_536) + 1;
      counts[d] = counts[d]! + 1;
    }
    for (let d = 1; d <= 65_536; d++) counts[d] = counts[d]! + counts[d - 1]!;
    for (let i = 0; i < n; i++) {
      const d = Math.floor(keys[i]! / shift) % 65_536;
      const at = counts[d]!;
      counts[d] = at + 1;
      keysTo[at] = keys[i]!;
      to[at] = from[i]!;
    }
    [keys, keysTo] = [keysTo, keys];
    [from, to] = [to, from];
  }
  for (let i = 0; i < n; i++) keys[i] = keys[i]! + min;
  return [keys, from];
}
