/**
 * The closest known name for an unknown one (contract §23), by edit distance
 * (fastest-levenshtein).
 *
 * @module
 */
import { distance } from "fastest-levenshtein";

/**
 * The known name closest to `name`: the same but for case, `_` or `-`, else one within
 * a third of its length by edit distance; `null` when none is that close.
 */
export function closestName(name: string, known: readonly string[]): string | null {
  const plain = (s: string) => s.toLowerCase().replace(/[_-]/g, "");
  const same = known.find((k) => plain(k) === plain(name));
  if (same) return same;
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const k of known) {
    const d = distance(plain(name), plain(k));
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}
