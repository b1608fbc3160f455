/**
 * The `fs.search_by_time` use case: check the arguments, scan, build the page, and
 * shape the result as the outputSchema says.
 *
 * @module
 */
import type { Config, Limits } from "../config.ts";
import type { Guard } from "../security/guard.ts";
import type { Clock } from "./clock.ts";
import { encodeCursor } from "./cursor.ts";
import { parseArguments } from "./arguments.ts";
import { buildPage } from "./page.ts";
import type { SearchQuery, TimeField } from "./query.ts";
import { completeOutcome, type Match, type ScanOutcome, type ScanProgress } from "./scan.ts";
import { keyOrder } from "./order.ts";
import type { Snapshot, SnapshotCache } from "./snapshot_cache.ts";
import type { Scanner } from "./scanner.ts";
import { formatTime } from "./time.ts";

/** One entry of `matches` in the outputSchema. */
export interface MatchOutput {
  path: string;
  isDirectory: boolean;
  sizeBytes: number | null;
  modifiedAt: string;
  createdAt: string | null;
}

/** `structuredContent` of a successful call (seed PRD-API 2.1.3, DECISIONS §4, §11). */
export interface SearchOutput {
  timeField: TimeField;
  range: { from: string | null; to: string | null };
  matches: MatchOutput[];
  nextCursor: string | null;
  stats: {
    scannedFiles: number;
    scannedDirectories: number;
    returned: number;
    truncated: boolean;
    skipped: number;
    elapsedMs: number;
  };
}

/** A successful search: the output plus what the summary line needs. */
export interface SearchResult {
  output: SearchOutput;
  query: SearchQuery;
}

/** What a search needs from the server. */
export interface SearchDeps {
  config: Config;
  scanner: Scanner;
  clock: Clock;
  /** Snapshots for cheap time-sorted paging; none when absent. */
  snapshots?: SnapshotCache;
  /** Layer 1; only the sandbox test passes anything but the default. */
  guard?: Guard;
}

/**
 * Runs one search.
 *
 * @throws {ToolError} for every tool execution error of DECISIONS §5 and §11.
 */
export async function searchByTime(
  args: unknown,
  deps: SearchDeps,
  signal?: AbortSignal,
  onProgress?: (progress: ScanProgress) => void,
): Promise<SearchResult> {
  const started = deps.clock.now();
  const { query, queryHash } = parseArguments(args, deps.config, deps.guard);
  const { limits } = deps.config;
  const snapshotKey = `${queryHash}|${query.sort}`;
  // From the second page of a complete scan on, a snapshot serves the pages: the first
  // page stays a lean scan, since most callers never ask for a second.
  const snapshotUsable = !!query.cursor?.key && query.cursor.w === null;
  const snapshot = snapshotUsable ? deps.snapshots?.get(snapshotKey) : undefined;
  const outcome = (snapshot && fromSnapshot(snapshot, query)) ??
    await scanFor(query, limits, deps, signal, onProgress, snapshotUsable);
  if (outcome.all && outcome.all.length > query.limit) {
    deps.snapshots?.put(snapshotKey, outcome.all, outcome.allComplete);
  }
  const page = buildPage(outcome, query, limits.onLimit);
  const output: SearchOutput = {
    timeField: query.timeField,
    range: {
      from: query.from === null ? null : formatTime(query.from),
      to: query.to === null ? null : formatTime(query.to),
    },
    matches: page.matches.map(toOutput),
    nextCursor: page.nextCursor === null ? null : encodeCursor(page.nextCursor, queryHash),
    stats: {
      scannedFiles: outcome.stats.scannedFiles,
      scannedDirectories: outcome.stats.scannedDirectories,
      returned: page.matches.length,
      truncated: page.truncated,
      skipped: outcome.stats.skipped,
      elapsedMs: Math.max(0, deps.clock.now() - started),
    },
  };
  return { output, query };
}

/** Scans for one page; asks for every match too when a snapshot could serve later pages. */
function scanFor(
  query: SearchQuery,
  limits: Limits,
  deps: SearchDeps,
  signal: AbortSignal | undefined,
  onProgress: ((progress: ScanProgress) => void) | undefined,
  snapshotWanted: boolean,
): Promise<ScanOutcome> {
  return deps.scanner.run(
    {
      rootPath: query.root.path,
      rootReal: query.root.realPath,
      startRel: query.path,
      timeField: query.timeField,
      from: query.from,
      to: query.to,
      glob: query.glob,
      recursive: query.recursive,
      maxDepth: query.maxDepth ?? limits.maxDepth,
      includeFiles: query.includeFiles,
      includeDirectories: query.includeDirectories,
      includeUnknownTime: query.includeUnknownTime,
      sort: query.sort,
      limit: query.limit,
      afterKey: query.cursor?.key ?? null,
      afterPath: query.cursor?.w ?? null,
      maxFiles: limits.maxFilesScanned,
      maxDirectories: limits.maxDirectoriesScanned,
      timeoutMs: limits.scanTimeoutMs,
      collectAll: snapshotWanted ? deps.snapshots?.maxItems ?? 0 : 0,
      partition: { index: 0, count: 1 },
    },
    signal,
    onProgress,
  );
}

/**
 * The next page from a snapshot: the items strictly after the cursor's key; or
 * undefined when a snapshot that stops short holds too few of them.
 */
function fromSnapshot(
  { matches: snapshot, complete }: Snapshot,
  query: SearchQuery,
): ScanOutcome | undefined {
  const order = keyOrder(query.sort);
  const key = query.cursor!.key!;
  let lo = 0;
  let hi = snapshot.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (order(snapshot[mid]!.key, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  if (!complete && lo + query.limit + 1 > snapshot.length) return undefined;
  return completeOutcome(snapshot.slice(lo, lo + query.limit + 1), {
    scannedDirectories: 0,
    scannedFiles: 0,
    skipped: 0,
  });
}

function toOutput(match: Match): MatchOutput {
  return {
    path: match.path,
    isDirectory: match.isDirectory,
    sizeBytes: match.sizeBytes,
    modifiedAt: formatTime(match.modified),
    createdAt: match.created === null ? null : formatTime(match.created),
  };
}
