/**
 * Paging (contract §10, §11): what a page holds and which position the next one starts
 * from, in one place. A page comes from a scan, or, from the second page of a result
 * set on, from a snapshot of it that an earlier scan kept.
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import type { Clock } from "../ports/mod.ts";
import type { Match, ScanOutcome, ScanProgress } from "../walk/mod.ts";
import {
  comparePaths,
  isWalkOrder,
  keyOrder,
  type Position,
  type SearchRequest,
} from "../query/mod.ts";
import type { Scanner } from "../workers/mod.ts";
import { type Snapshot, SnapshotCache, type SnapshotCacheOptions } from "./snapshot_cache.ts";

/** Counts of the work behind one page (contract §8, §11). */
export interface PageStats {
  scannedFiles: number;
  scannedDirectories: number;
  /** Entries skipped: vanished, unreadable, without a time. */
  skipped: number;
  /** Entries left out because their created time is unknown (contract §7). */
  unknownTime: number;
  /** Entries left out by `exclude` or ignore files; a folder counts once (contract §17). */
  excluded: number;
  /** Matches left out inside version-control folders (contract §27). */
  vcs: number;
}

/** One page of results. */
export interface Page {
  /** In the requested order. */
  matches: Match[];
  /** Where the next page starts; `null` exactly when nothing remains. */
  next: Position | null;
  /** Whether a scan limit cut the walk short (the page covers only part of the tree). */
  truncated: boolean;
  stats: PageStats;
  /** Matches of the whole query, when this page's scan saw all of it; else `null`. */
  totalMatches: number | null;
  /** Whether the page holds fewer than `limit` matches so that it fits (contract §16). */
  cutForSize: boolean;
  /** This scan, or an earlier one of the same root, hung in the file system (contract §19). */
  hung: "now" | "before" | null;
}

/** Options of {@linkcode Pager.page}. */
export interface PageOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ScanProgress) => void;
  /**
   * Whether a page is small enough to send. One that is not is cut to the most matches
   * that fit (at least one), with the position after its last one (contract §16).
   */
  fits?: (page: Page) => boolean;
  /**
   * When the paging sequence began, if it begins with this page: the "now" its relative
   * windows were resolved against (contract §21), carried by its cursors as `c`.
   *
   * @default {the pager's clock, now}
   */
  sequenceStart?: number;
  /** Told who answered (contract §18): the scanner's word, or an earlier page's scan. */
  onAnswered?: (by: string) => void;
}

/** Options of {@linkcode Pager}. */
export interface PagerOptions {
  scanner: Scanner;
  clock: Clock;
  /** Snapshots for cheap paging; `false` for none. Default: {@linkcode SnapshotCache}'s. */
  snapshots?: SnapshotCacheOptions | false;
}

const NO_WORK: Readonly<PageStats> = Object.freeze({
  scannedFiles: 0,
  scannedDirectories: 0,
  skipped: 0,
  unknownTime: 0,
  excluded: 0,
  vcs: 0,
});

/** Builds pages. */
export class Pager {
  readonly #scanner: Scanner;
  readonly #clock: Clock;
  readonly #snapshots: SnapshotCache | null;

  constructor(options: PagerOptions) {
    this.#scanner = options.scanner;
    this.#clock = options.clock;
    this.#snapshots = options.snapshots === false
      ? null
      : new SnapshotCache(options.clock, options.snapshots);
  }

  /**
   * The page `request` asks for; `queryHash` names its result set.
   *
   * @throws {ToolError} the scan's errors; `ScanLimitExceeded` or `TimeoutExceeded`
   * when a limit stopped the scan and `ON_LIMIT` is `error`.
   */
  async page(request: SearchRequest, queryHash: string, options: PageOptions = {}): Promise<Page> {
    // Snapshots belong to one paging sequence, named by when its first page was made.
    const chain = request.after?.chain ?? options.sequenceStart ?? this.#clock.now();
    const whole = await this.#whole(request, `${queryHash}|${request.order}|${chain}`, options);
    const page = options.fits ? fitted(whole, request, options.fits) : whole;
    // The cursor carries how many matches the pages so far gave (contract §26), so that a
    // last page knows the total even when its own scan could not count it.
    const before = request.after?.counted;
    const counted = (before ?? 0) + page.matches.length;
    if (page.next !== null) return { ...page, next: { ...page.next, chain, counted } };
    const last = page.totalMatches === null && !page.truncated && before !== undefined;
    return last ? { ...page, totalMatches: counted } : page;
  }

  /** The page of `limit` matches. */
  async #whole(request: SearchRequest, snapshotKey: string, options: PageOptions): Promise<Page> {
    const { signal, onProgress, onAnswered } = options;
    // From the second page of a complete scan on, a snapshot serves the pages: the
    // first page stays a lean scan, since most callers never ask for a second.
    const snapshotUsable = this.#snapshots !== null && !!request.after?.key &&
      request.after.boundary === null;
    const snapshot = snapshotUsable ? this.#snapshots!.get(snapshotKey) : undefined;
    const fromSnapshot = snapshot && pageFromSnapshot(snapshot, request);
    if (fromSnapshot) {
      onAnswered?.("the snapshot of this paging sequence's scan");
      return fromSnapshot;
    }

    const keepAll = snapshotUsable ? this.#snapshots!.maxItems : 0;
    const outcome = await this.#scanner.run(request, {
      keepAll,
      ...(signal ? { signal } : {}),
      ...(onProgress ? { onProgress } : {}),
      ...(onAnswered ? { onAnswered } : {}),
    });
    const { all, allComplete, total } = outcome.collected;
    if (all && all.length > request.limit) {
      const after = request.after!.key!;
      this.#snapshots?.put(snapshotKey, { after, matches: all, complete: allComplete, total });
    }
    return pageFromScan(outcome, request);
  }
}

function pageFromScan(outcome: ScanOutcome, request: SearchRequest): Page {
  const stats: PageStats = {
    scannedFiles: outcome.walk.scannedFiles,
    scannedDirectories: outcome.walk.scannedDirectories,
    skipped: outcome.walk.skipped + outcome.entries.skipped,
    unknownTime: outcome.entries.unknownTime,
    excluded: outcome.walk.excluded,
    vcs: outcome.entries.vcs,
  };
  const { collected, stopped } = outcome;
  const hung = outcome.hung ?? null;
  if (stopped === null) {
    return { ...firstOf(collected.first, request, stats, collected.total), hung };
  }
  if (request.limits.onLimit === "error") throw limitError(stopped.reason, stats);
  return {
    ...truncatedAt(collected.walkPrefix, request.limit, stopped.boundary, request),
    truncated: true,
    stats,
    totalMatches: null,
    cutForSize: false,
    hung,
  };
}

/**
 * The next page from a snapshot; undefined when the snapshot starts after the request's
 * key (it lacks what lies between), or stops short and holds too few.
 */
function pageFromSnapshot(snapshot: Snapshot, request: SearchRequest): Page | undefined {
  const candidates = snapshotSlice(snapshot, request);
  return candidates && firstOf(candidates, request, NO_WORK, snapshot.total);
}

/**
 * The first `limit + 1` matches of `snapshot` after the request's key, in its order;
 * undefined when the snapshot starts after that key (it lacks what lies between), or
 * stops short and holds too few.
 */
export function snapshotSlice(snapshot: Snapshot, request: SearchRequest): Match[] | undefined {
  const { matches, complete } = snapshot;
  const order = keyOrder(request.order);
  const key = request.after!.key!;
  if (order(key, snapshot.after) < 0) return undefined;
  let lo = 0;
  let hi = matches.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (order(matches[mid]!, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  if (!complete && lo + request.limit + 1 > matches.length) return undefined;
  return matches.slice(lo, lo + request.limit + 1);
}

/** A page of the first `limit` of `candidates` (in order), with more to come if there are. */
function firstOf(
  candidates: Match[],
  request: SearchRequest,
  stats: PageStats,
  totalMatches: number | null,
): Page {
  const matches = candidates.slice(0, request.limit);
  const last = matches[matches.length - 1];
  const more = candidates.length > request.limit && last !== undefined;
  return {
    matches,
    next: more ? afterLast(last, request) : null,
    truncated: false,
    stats,
    totalMatches,
    cutForSize: false,
    hung: null,
  };
}

/** The page itself if it fits, else the largest cut of it that does (at least one match). */
function fitted(page: Page, request: SearchRequest, fits: (page: Page) => boolean): Page {
  if (page.matches.length <= 1 || fits(page)) return page;
  let lo = 1; // the largest count known to fit, or 1 (a page always holds one match)
  let hi = page.matches.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(cut(page, request, mid))) lo = mid;
    else hi = mid - 1;
  }
  return cut(page, request, lo);
}

/**
 * The page with only `n` of its matches, and the position right after them: after the
 * last one kept in the request's order; on a truncated page (contract §11), the first
 * `n` in path order, with the walk boundary moved back to the last of them.
 */
function cut(page: Page, request: SearchRequest, n: number): Page {
  if (!page.truncated) {
    const matches = page.matches.slice(0, n);
    return { ...page, matches, next: afterLast(matches[n - 1]!, request), cutForSize: true };
  }
  const inPathOrder = [...page.matches].sort((a, b) => comparePaths(a.path, b.path));
  return { ...page, ...truncatedAt(inPathOrder, n, null, request), cutForSize: true };
}

/**
 * The next position after a complete page, or a complete page's cut (contract §10, §11):
 * strictly after its last match in the request's order, the walk boundary as it came.
 */
function afterLast(last: Match, request: SearchRequest): Position {
  return { key: { time: last.time, path: last.path }, boundary: request.after?.boundary ?? null };
}

/**
 * A truncated page's matches and next position (contract §11): the first `n` of `found`
 * (matches up to where the walk stopped, in path order), shown in the request's order; the
 * cursor's key stays as it came, and the walk resumes after the last match kept if some
 * were left out, else after `stoppedAt`, where the walk stopped.
 */
function truncatedAt(
  found: Match[],
  n: number,
  stoppedAt: string | null,
  request: SearchRequest,
): Pick<Page, "matches" | "next"> {
  const kept = found.slice(0, n);
  const boundary = found.length > n || stoppedAt === null ? kept[kept.length - 1]!.path : stoppedAt;
  const matches = isWalkOrder(request.order) ? kept : kept.sort(keyOrder(request.order));
  return { matches, next: { key: request.after?.key ?? null, boundary } };
}

function limitError(reason: string, stats: PageStats): ToolError {
  const counts = `Scanned: ${stats.scannedFiles} files, ${stats.scannedDirectories} directories.`;
  const fix =
    "Narrow the search: a deeper 'path', a 'glob', a smaller 'maxDepth' or a tighter from/to range.";
  if (reason === "timeout") {
    return new ToolError(
      "TimeoutExceeded",
      "The scan ran out of time before covering the whole tree.",
      fix,
      [counts],
    );
  }
  return new ToolError(
    "ScanLimitExceeded",
    "The scan reached the server's limit on entries examined before covering the whole tree.",
    fix,
    [counts],
  );
}
