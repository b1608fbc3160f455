/**
 * How a scan is split over workers (contract §11): shares that split folders, so that
 * each folder below the top is listed once, by one share, and the walk costs what one
 * walk costs; collector.ts merges the shares' outcomes into one whole scan's.
 *
 * @module
 */

/**
 * Which share of a split scan this is: the `index`-th of `count`. Every share reads the
 * listings down to {@linkcode SHARED_DEPTH}; each entry there is visited by its owner
 * ({@linkcode ownerOf}), and each folder's subtree below is walked whole by its owner.
 */
export interface Share {
  index: number;
  count: number;
}

/** A whole scan, not split. */
export const WHOLE: Readonly<Share> = Object.freeze({ index: 0, count: 1 });

/**
 * A split walk's shared listings: the start's and its folders'. Their folders' subtrees
 * are each walked whole by one share; on a tree of many small folders every folder is
 * then listed once (not once a share), and hundreds of subtrees balance the shares.
 */
export const SHARED_DEPTH = 2;

/** Which of `count` shares owns `path` (and, for a folder, its subtree): FNV-1a of its text. */
export function ownerOf(path: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    hash ^= path.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % count;
}
