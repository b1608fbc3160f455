/**
 * Names in the runs of the live index's folders (contract §18; folder_tree.ts): a run's
 * names are one string, each name ending where the entry's `nameEnd` says, sorted. Here:
 * how two names compare without cutting them out, where a name is in a run, and how an old run's entries pair with
 * a new run's of the same folder, by name, in one pass over both.
 *
 * @module
 */
import type { EntryColumns } from "./entry_columns.ts";

/** A run: its first entry, how many, and its string of names. */
export interface Run {
  first: number;
  count: number;
  names: string;
}

/** How `a.slice(aStart, aEnd)` compares with `b.slice(bStart, bEnd)` (as `<` does), without slicing. */
export function compareNames(
  a: string,
  aStart: number,
  aEnd: number,
  b: string,
  bStart: number,
  bEnd: number,
): number {
  const n = Math.min(aEnd - aStart, bEnd - bStart);
  for (let k = 0; k < n; k++) {
    const d = a.charCodeAt(aStart + k) - b.charCodeAt(bStart + k);
    if (d !== 0) return d;
  }
  return aEnd - aStart - (bEnd - bStart);
}

/** The entry number of `name` in `run` (whose names end where `ends` says), or -1. */
export function findName(ends: ArrayLike<number>, run: Run, name: string): number {
  const { first, names } = run;
  let lo = first;
  let hi = first + run.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = mid === first ? 0 : ends[mid - 1]!;
    const order = compareNames(names, start, ends[mid]!, name, 0, name.length);
    if (order === 0) return mid;
    if (order < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Pairs the entries of `old` with those of `now` (both runs in `cols`, sorted by name):
 * `pair(o, n)` for each name in both, `gone(o)` for each name only in `old`.
 */
export function pairRuns(
  cols: EntryColumns,
  old: Run,
  now: Run,
  pair: (o: number, n: number) => void,
  gone: (o: number) => void,
): void {
  const ends = cols.nameEnd;
  const start = (run: Run, e: number) => (e === run.first ? 0 : ends[e - 1]!);
  let n = now.first;
  const nowEnd = now.first + now.count;
  for (let o = old.first; o < old.first + old.count; o++) {
    let order = 1;
    for (; n < nowEnd; n++) {
      order = compareNames(now.names, start(now, n), ends[n]!, old.names, start(old, o), ends[o]!);
      if (order >= 0) break;
    }
    if (order === 0) pair(o, n++);
    else gone(o);
  }
}
