/**
 * What a held tree (held_tree.ts) is told when it is made, and why it may stop recording.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";

/** Why a cache stopped recording: too many entries, or its memory budget. */
export type Overflow = "entries" | "memory";

/** Options of a held tree. */
export interface HeldTreeOptions {
  /** Where misses are read: the real file system, perhaps through a fill's feed. */
  base: FsPort;
  /**
   * The disk itself, never a feed: what an entry of no known kind is (a FIFO?) is asked of
   * it, since a fed stat says only file, folder or link. Default: `base`.
   */
  disk?: FsPort;
  /** The root's real path: every path the cache holds lies below it. */
  rootReal: string;
  /** The most entries kept (`INDEX_MAX_ENTRIES`). */
  maxEntries: number;
  /** The most heap the names may take, as `namesBytes` estimates it. Default: no bound. */
  maxBytes?: number;
  /** Whether the heap is nearly full (asked once per 1 MB kept). Default: never. */
  heapNearlyFull?: () => boolean;
  /** Folders the watch leaves out (watch_plan.ts): read from disk by every scan. */
  unwatched?: readonly string[];
}

/** What a held tree tells its root's journal (contract §24), each before it acts. */
export interface HeldTreeHooks {
  /**
   * The stat of `abs` is about to be forgotten, or with `below`, everything below it too:
   * the journal keeps what it would need of them.
   */
  forgetting?: (abs: string, below: boolean) => void;
  /** A change the background check found with no event, before it is forgotten. */
  unseen?: (abs: string) => void;
  /** A listing read from disk, before it is kept: it may be ahead of the events taken. */
  learning?: (abs: string, names: readonly string[]) => void;
}
