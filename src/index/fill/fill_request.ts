/**
 * How a root's index is filled (contract §18): once its watch runs, one scan over the
 * whole root, on the index worker, records every folder's listing and every entry's
 * lstat. It is an ordinary scan (the same walk, checks and guards as a call's) that
 * matches every file and keeps only the newest, so that the walk visits everything and
 * collects next to nothing; it gives way while calls run (`giveWay`), so that calls made
 * while it fills are not slowed by it.
 *
 * @module
 */
import { DEFAULT_LIMITS, type Root } from "../../config.ts";
import { EVERY_FILE, type SearchRequest } from "../../query/mod.ts";

/** How long a fill may take before it is given up (the root then goes back to walks). */
export const FILL_TIMEOUT_MS = 60 * 60_000;
/** Fills that fail in a row before the root goes back to walks (its watch tried again later). */
export const FILL_ATTEMPTS = 5;
/** The longest wait before a fill that failed because the tree kept changing is tried again. */
export const UNSETTLED_WAIT_MS = 15_000;

/**
 * How long after its `tries`-th failure in a row a fill is tried again: a wait that doubles
 * each time from `baseMs`, capped at {@linkcode UNSETTLED_WAIT_MS}; one that failed because
 * the tree kept changing under it (`unsettled`: a build, an unpack) is always tried again
 * (the change ends, and then the fill holds). `null` after {@linkcode FILL_ATTEMPTS} other
 * failures: the root then walks, and its watch is tried again later.
 */
export function refillIn(tries: number, unsettled: boolean, baseMs: number): number | null {
  if (tries >= FILL_ATTEMPTS && !unsettled) return null;
  return Math.min(baseMs * 2 ** Math.min(tries - 1, 10), UNSETTLED_WAIT_MS);
}

/** The scan that fills `root`'s index: every entry to `maxDepth`, up to `maxEntries`. */
export function fillRequest(root: Root, maxEntries: number, maxDepth?: number): SearchRequest {
  return {
    root,
    start: { path: "", recursive: true, maxDepth: null },
    filter: { ...EVERY_FILE, exclude: [], includeUnknownTime: true },
    order: "time_desc",
    limit: 1,
    after: null,
    limits: {
      maxFilesScanned: maxEntries + 1,
      maxDirectoriesScanned: maxEntries + 1,
      scanTimeoutMs: FILL_TIMEOUT_MS,
      maxDepth: maxDepth ?? DEFAULT_LIMITS.maxDepth,
      onLimit: "partial",
    },
  };
}
