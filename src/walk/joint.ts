/**
 * Joint walks (contract §28a, "several sessions asking at once cost one walk"): requests
 * that would walk the same entries in the same way (one root, start, excludes, ignore
 * files, depth and limits) are walked once, each entry read once and judged by each
 * request's own filter into its own page (scan.ts, `ScanPlan.joined`).
 *
 * @module
 */
import { depthLimit, isWalkOrder, type SearchRequest } from "../query/mod.ts";
import { mergeShares, type ScanOutcome } from "./collector.ts";

/** A request walked alongside another (`ScanPlan.joined`), with what it keeps for later pages. */
export interface JoinedRequest {
  request: SearchRequest;
  keepAll: number;
}

/**
 * What a walk of `request` reads and how, as a key: requests with the same key can be
 * walked as one. `null` for one that cannot join: `path_asc` (which stops once its own page
 * is full) and a later page (which starts where its cursor points).
 */
export function jointKey(request: SearchRequest): string | null {
  if (isWalkOrder(request.order) || request.after !== null) return null;
  const { root, start, filter, limits } = request;
  return JSON.stringify([
    root.realPath,
    start.path,
    start.recursive,
    depthLimit(request),
    filter.exclude,
    filter.respectIgnoreFiles,
    // Excludes and ignore files match by case as the request's globs do.
    filter.exclude.length > 0 || filter.respectIgnoreFiles ? filter.caseSensitive : null,
    limits.maxFilesScanned,
    limits.maxDirectoriesScanned,
  ]);
}

/**
 * Merges the shares of a walk and of the requests walked with it (`joined`), as
 * `mergeShares` does one request's: `null` when any of them does not merge (the caller
 * walks again whole). A share that hung says nothing of the joined requests: the outcome
 * then has no `joined`.
 */
export function mergeJoint(
  outcomes: ScanOutcome[],
  request: SearchRequest,
  keepAll: number,
  joined: JoinedRequest[] | undefined,
): ScanOutcome | null {
  const merged = mergeShares(outcomes, request, keepAll);
  if (merged === null || !joined) return merged;
  if (outcomes.some((o) => o.joined === undefined)) return { ...merged, joined: undefined };
  const each = joined.map((j, at) =>
    mergeShares(outcomes.map((o) => o.joined![at]!), j.request, j.keepAll)
  );
  return each.every((o) => o !== null) ? { ...merged, joined: each as ScanOutcome[] } : null;
}
