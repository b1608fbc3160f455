/**
 * What the time order (time_order.ts) is asked and answers: a window of one time field and
 * how a walk from its start (the root, or a folder below it) reads it, a time-ordered page,
 * the folders that page can come from, and a window's count.
 *
 * @module
 */

/** A window of modification (or birth) times, and how a walk from its start reads it. */
export interface OrderWindow {
  /** Of birth times (contract §7: a file with none is never inside). */
  created: boolean;
  /** Files match (all but a folders-only question). */
  files: boolean;
  /** Folders match (their own times). */
  folders: boolean;
  /** The absolute path of the folder the walk starts from (the root's, or one below it). */
  startAbs: string;
  /** Whether the walk visits a start below the root itself: a match, a folder in the window. */
  visitsStart: boolean;
  from: number;
  to: number;
  /** Listings read at most this deep (the start's is 1). */
  maxDepth: number;
  /** Whether files inside version-control folders are left out (contract §27). */
  vcsLeftOut: boolean;
}

/**
 * Which end of a window a page is taken from (`desc`: the newest), how many matches it
 * needs (`k`), the cursor's time (`tie`: `NaN` for none), and what else a file must be to
 * match (a glob, a size bound), given its root-relative path, its kind and its held stat.
 */
export interface PageAsk {
  desc: boolean;
  k: number;
  tie: number;
  wants: ((path: string, isDirectory: boolean, info: Deno.FileInfo) => boolean) | null;
}

/** The folder records a page can come from (1), and the time past which it cannot. */
export interface PageFolders {
  only: Uint8Array;
  edge: number;
}

/** The matches inside a window, and those of them inside version-control folders. */
export interface WindowCount {
  matches: number;
  vcs: number;
}
