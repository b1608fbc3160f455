/**
 * Merging the outcomes of a scan split into shares (DECISIONS §11, parallel walk).
 *
 * Every share walks the same listings in the same order and counts every entry, so
 * the file and folder limits stop all shares at the same boundary; only which entries
 * each one stats differs. A time-out may stop shares at different places: the merged
 * boundary is then the smallest, and whatever a share found beyond it is dropped.
 *
 * @module
 */
import { comparePaths, keyOrder } from "./order.ts";
import type { Sort } from "./query.ts";
import type { Match, ScanOutcome } from "./scan.ts";
import { TopK } from "./top_k.ts";

/**
 * Merges the shares' outcomes into the outcome one whole scan would have had.
 *
 * @example
 * ```ts
 * const whole = mergeOutcomes([share0, share1], { sort: "time_desc", limit: 100, collectAll: 0 });
 * ```
 */
export function mergeOutcomes(
  outcomes: ScanOutcome[],
  request: { sort: Sort; limit: number; collectAll: number },
): ScanOutcome {
  const first = outcomes[0]!;
  if (outcomes.length === 1) return first;
  const order = keyOrder(request.sort);
  const top = new TopK<Match>(request.limit + 1, (a, b) => order(a.key, b.key));
  for (const o of outcomes) for (const m of o.bySort) top.add(m);
  const bySort = top.sorted();
  const byPathAll = outcomes.flatMap((o) => o.byPath).sort((a, b) => comparePaths(a.path, b.path));
  const entrySkipped = outcomes.reduce((sum, o) => sum + o.entrySkipped, 0);
  const stats = {
    ...first.stats,
    skipped: first.stats.skipped - first.entrySkipped + entrySkipped,
  };

  let stopped: ScanOutcome["stopped"] = null;
  for (const o of outcomes) {
    if (o.stopped && (stopped === null || o.stopped.boundary < stopped.boundary)) {
      stopped = o.stopped;
    }
  }
  // path_asc ends as soon as limit + 1 matches are in: if they all lie at or before the
  // boundary, one whole scan would have ended there, complete, before any limit.
  const filled = request.sort === "path_asc" ? bySort[request.limit] : undefined;
  if (stopped && filled && filled.path <= stopped.boundary) stopped = null;

  if (stopped) {
    const boundary = stopped.boundary;
    const byPath = byPathAll.filter((m) => m.path <= boundary).slice(0, request.limit + 1);
    return { stopped, bySort, byPath, all: null, allComplete: false, stats, entrySkipped };
  }
  let all: Match[] | null = null;
  // Shares cut short stop at different places: their partial lists do not join up.
  if (outcomes.every((o) => o.all !== null && o.allComplete)) {
    const merged = outcomes.flatMap((o) => o.all!);
    all = merged.length <= request.collectAll ? merged.sort((a, b) => order(a.key, b.key)) : null;
  }
  return {
    stopped: null,
    bySort,
    byPath: byPathAll.slice(0, request.limit + 1),
    all,
    allComplete: all !== null,
    stats,
    entrySkipped,
  };
}
