/**
 * A fill on two cores, as the server starts it (contract §18, docs/index.md "The fill on
 * two cores"): beside the fill on the index worker, a fill helper (fill_worker.ts) runs
 * the other share of the same scan and feeds what it reads to the index worker through a
 * ring (feed_ring.ts). The helper is only ever a help: if it fails, lags or stops, the
 * index reads from disk itself, and the fill's outcome is the index worker's alone.
 *
 * @module
 */
import type { SearchRequest } from "../../query/mod.ts";
import type { Share } from "../../walk/mod.ts";
import { runTask, spawnSandboxed } from "../../workers/mod.ts";
import { newFeedRing, stopFeed } from "./feed_ring.ts";
import type { FeedCommand } from "./fill_messages.ts";

/** The helper's share of the fill's entries: the index worker stats the others. */
export const HELPER_SHARE: Readonly<Share> = Object.freeze({ index: 1, count: 2 });

/** Options of {@linkcode startFeed}. */
export interface FeedOptions {
  /** The helper's module. */
  url: URL;
  /** What the helper may read: the roots. */
  readPaths: string[];
  /** While above 0, the helper waits (calls are running), as the fill does. */
  giveWay: Int32Array;
  /** How long past the scan's time limit a silent helper is given. */
  graceMs: number;
  /** The helper failed (it could not load, or it crashed): the fill goes on alone. */
  onFailed(): void;
}

/**
 * Starts a helper for the fill `request` about to run on the index worker, and tells that
 * worker to take its feed (`toIndex`, with `null` once over). The returned function ends
 * it: the helper stops and the index worker reads from disk alone again.
 */
export function startFeed(
  toIndex: (ring: SharedArrayBuffer | null) => void,
  request: SearchRequest,
  options: FeedOptions,
): () => void {
  const ring = newFeedRing();
  toIndex(ring);
  const helper = spawnSandboxed(options.url, options.readPaths);
  helper.postMessage({ type: "feed", ring } satisfies FeedCommand);
  const task = runTask(helper, request, {
    plan: { share: HELPER_SHARE, keepAll: 0 },
    signal: new AbortController().signal, // never aborted: the task is abandoned instead
    giveWay: options.giveWay,
    graceMs: options.graceMs,
    settle: () => {},
  });
  let ended = false;
  // Its outcome is not used; a helper that fails before the fill ends is only said.
  task.outcome.catch(() => ended || options.onFailed());
  return () => {
    ended = true;
    stopFeed(ring);
    task.abandon();
    helper.terminate();
    toIndex(null);
  };
}
