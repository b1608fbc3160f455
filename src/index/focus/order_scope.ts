/**
 * Where a walk from a window's start folder reads, in a root's time order (time_order.ts):
 * the start's folder record, the deepest listing it reads as the root's depths count them
 * (the start's own listing is the walk's first), and, for a start below the root, which
 * records lie at or below it. A start inside a version-control folder (or one itself) has
 * none, since its walk counts version control from itself (contract §27); nor has one the
 * index does not hold as a folder (reached through a link, say); nor one whose subtree holds
 * less than {@linkcode SCOPE_SHARE} of the root's files and listings: the order is read over
 * the whole window (every record looked at once, then the window's range), so a small
 * subtree is cheaper visited (focus.ts) than picked out of it (home-2m-184k: a folder of one
 * file, 1-2 ms visited, 27-53 ms from the order).
 *
 * @module
 */
import type { FolderTree } from "../store/mod.ts";
import { placeOf } from "./record_place.ts";

/** The least share of the root's files and listings below a start read from the order. */
export const SCOPE_SHARE = 1 / 8;

/** A walk's reach in the order: its start, its deepest listing, the records below it. */
export interface Scope {
  start: number;
  /** Listings at most this deep from the root (the root's is 1) are read. */
  lastDepth: number;
  /**
   * Whether a record lies at or below the start (`null` for the root: every record does):
   * read `marks[f]` first (1 below, 2 not, 0 not known yet: then call `below`).
   */
  below: ((f: number) => boolean) | null;
  marks: Uint8Array | null;
}

/** The reach of a walk from `startAbs` reading `maxDepth` deep, or `null` (above). */
export function scopeOf(tree: FolderTree, startAbs: string, maxDepth: number): Scope | null {
  const start = tree.node(startAbs, false);
  if (start < 0 || !tree.listed(start)) return null;
  if (start === 0) return { start, lastDepth: maxDepth, below: null, marks: null };
  const rec = tree.folders;
  const size = (f: number) => rec.files[f]! + rec.listings[f]!;
  if (size(start) < SCOPE_SHARE * size(0)) return null;
  const place = placeOf(tree, start);
  if (place.vcs) return null;
  const marks = new Uint8Array(rec.length); // 0: not known yet, 1: below, 2: not
  const lastDepth = maxDepth + place.depth - 1;
  return { start, lastDepth, below: belowOf(tree, start, marks), marks };
}

/**
 * Whether a record lies at or below `start`, each record's way up looked at once, as it is
 * first asked of (a question asks of the records in its window, not of every one).
 */
function belowOf(tree: FolderTree, start: number, mark: Uint8Array): (f: number) => boolean {
  const rec = tree.folders;
  mark[start] = 1;
  mark[0] = 2;
  const way: number[] = [];
  return (f) => {
    let c = f;
    while (c > 0 && mark[c] === 0) {
      way.push(c);
      c = rec.parent[c]!;
    }
    const m = c < 0 ? 2 : mark[c]!;
    for (const w of way) mark[w] = m;
    way.length = 0;
    return m === 1;
  };
}
