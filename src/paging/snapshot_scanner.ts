/**
 * Paging snapshots kept where the scan runs (contract §10, §28a): a scanner in front of
 * another that keeps, for a scan asked to keep its whole result (`keepAll`, from a paging
 * sequence's second page on), that result as a snapshot here, and answers the same
 * sequence's later pages from it; what it returns never carries the whole result, only
 * each page's `limit + 1` matches. An index service puts it in front of its index, so a
 * later page costs its session one page over the socket, not the whole sequence.
 *
 * @module
 */
import type { Clock } from "../ports/mod.ts";
import type { SearchRequest } from "../query/mod.ts";
import type { ScanOutcome } from "../walk/mod.ts";
import type { RunOptions, Scanner } from "../workers/mod.ts";
import { snapshotSlice } from "./paging.ts";
import { SnapshotCache, type SnapshotCacheOptions } from "./snapshot_cache.ts";

/** A scanner that keeps paging snapshots itself and hands out one page at a time. */
export class SnapshotScanner implements Scanner {
  readonly #inner: Scanner;
  readonly #snapshots: SnapshotCache;

  constructor(inner: Scanner, clock: Clock, options: SnapshotCacheOptions = {}) {
    this.#inner = inner;
    this.#snapshots = new SnapshotCache(clock, options);
  }

  async run(request: SearchRequest, options: RunOptions = {}): Promise<ScanOutcome> {
    const keepAll = options.keepAll ?? 0;
    const usable = keepAll > 0 && !!request.after?.key && request.after.boundary === null;
    const key = usable ? snapshotKey(request) : "";
    const snapshot = usable ? this.#snapshots.get(key) : undefined;
    const first = snapshot && snapshotSlice(snapshot, request);
    if (first) {
      options.onAnswered?.("the snapshot of this paging sequence's scan");
      return {
        stopped: null,
        collected: { first, walkPrefix: [], all: null, allComplete: false, total: snapshot.total },
        walk: { scannedDirectories: 0, scannedFiles: 0, skipped: 0, excluded: 0 },
        entries: { skipped: 0, unknownTime: 0, vcs: 0 },
      };
    }
    const outcome = await this.#inner.run(request, {
      ...options,
      keepAll: usable ? Math.min(keepAll, this.#snapshots.maxItems) : 0,
    });
    const { all, allComplete, total } = outcome.collected;
    if (usable && all && all.length > request.limit) {
      this.#snapshots.put(key, {
        after: request.after!.key!,
        matches: all,
        complete: allComplete,
        total,
      });
    }
    return { ...outcome, collected: { ...outcome.collected, all: null } };
  }

  close(): void {
    this.#inner.close();
  }
}

/** A paging sequence's name: its query (root, start, filter), order and first page's time. */
function snapshotKey(request: SearchRequest): string {
  const { root, start, filter, order, after } = request;
  return JSON.stringify([root.realPath, start, filter, order, after?.chain ?? null]);
}
