/**
 * Turning a scan's candidates into one page and its cursor (DECISIONS §10, §11).
 *
 * @module
 */
import type { OnLimit } from "../config.ts";
import { ToolError } from "../errors.ts";
import { keyOrder } from "./order.ts";
import type { Cursor, Sort } from "./query.ts";
import type { Match, ScanOutcome } from "./scan.ts";

/** One page of results. */
export interface Page {
  /** In the requested order. */
  matches: Match[];
  /** `null` exactly when nothing remains. */
  nextCursor: Cursor | null;
  /** Whether a scan limit cut the walk short (the page covers only part of the tree). */
  truncated: boolean;
}

/**
 * Builds the page.
 *
 * A complete scan returns the first `limit` matches in sort order, and a cursor at
 * the last one if more remain. A scan stopped at boundary B returns the first
 * `limit` matches up to B in path order (moving B back to the last one kept if there
 * were more), sorted, with a cursor that resumes the walk after B.
 *
 * @throws {ToolError} `ScanLimitExceeded` or `TimeoutExceeded` when the scan stopped
 * and `onLimit` is `"error"`.
 */
export function buildPage(
  outcome: ScanOutcome,
  request: { sort: Sort; limit: number; cursor: Cursor | null },
  onLimit: OnLimit,
): Page {
  const { sort, limit, cursor } = request;
  if (outcome.stopped === null) {
    const matches = outcome.bySort.slice(0, limit);
    const last = matches[matches.length - 1];
    const more = outcome.bySort.length > limit && last !== undefined;
    return {
      matches,
      nextCursor: more ? { s: sort, key: last.key, w: cursor?.w ?? null } : null,
      truncated: false,
    };
  }
  if (onLimit === "error") throw limitError(outcome);
  let boundary = outcome.stopped.boundary;
  const kept = outcome.byPath.slice(0, limit);
  if (outcome.byPath.length > limit) boundary = kept[kept.length - 1]!.path;
  const order = keyOrder(sort);
  const matches = sort === "path_asc" ? kept : [...kept].sort((a, b) => order(a.key, b.key));
  return {
    matches,
    nextCursor: { s: sort, key: cursor?.key ?? null, w: boundary },
    truncated: true,
  };
}

function limitError(outcome: ScanOutcome): ToolError {
  const { scannedFiles, scannedDirectories } = outcome.stats;
  const counts = `Scanned: ${scannedFiles} files, ${scannedDirectories} directories.`;
  if (outcome.stopped?.reason === "timeout") {
    return new ToolError(
      "TimeoutExceeded",
      "The scan ran out of time before covering the whole tree.",
      "Narrow the search: a deeper 'path', a 'glob', a smaller 'maxDepth' or a tighter from/to range.",
      [counts],
    );
  }
  return new ToolError(
    "ScanLimitExceeded",
    "The scan reached the server's limit on entries examined before covering the whole tree.",
    "Narrow the search: a deeper 'path', a 'glob', a smaller 'maxDepth' or a tighter from/to range.",
    [counts],
  );
}
