/**
 * The collector: keeps, while a scan walks, exactly what a page of the request can be
 * built from, merges the shares of a parallel scan, and knows whether the scan covered
 * the whole query (contract §10, §11).
 *
 * A page needs, for its order, the first `limit + 1` matches after the cursor (a
 * bounded top-k for the time orders; for `path_asc`, the walk order itself, so the walk
 * stops as soon as they are in). If a limit stops the walk, the page is cut from the
 * first `limit + 1` matches in walk order instead (§11), so those are kept too; for
 * `path_asc` they are the same list. Asked for (`keepAll`), it also keeps every match,
 * so that later pages need no scan.
 *
 * @module
 */
import type { Match } from "./filter.ts";
import { comparePaths, isWalkOrder, keyOrder, type SearchRequest } from "../query/mod.ts";
import { TopK } from "./top_k.ts";
import type { StopReason, WalkEnd, WalkStats } from "./walk.ts";

/** What a page is built from. */
export interface Collected {
  /** The first `limit + 1` matches after the cursor's key, in the request's order. */
  first: Match[];
  /** The first `limit + 1` matches after the cursor's key, in walk (path) order. */
  walkPrefix: Match[];
  /** Every match after the key, in order, when `keepAll` asked for them and they fit. */
  all: Match[] | null;
  /** Whether `all` runs to the end of the result set (else it stops at its last item). */
  allComplete: boolean;
  /** Matches of the whole query, cursor key or not, when the walk covered all of it. */
  total: number | null;
}

/** Per-entry counts of one share (of the entries it visited). */
export interface EntryCounts {
  /** Entries that vanished or had no time. */
  skipped: number;
  /** Entries left out because their created time is unknown (contract §7). */
  unknownTime: number;
  /** Matches left out because they lie inside a version-control folder (contract §27). */
  vcs: number;
}

/** What a scan found. */
export interface ScanOutcome {
  /** `null` when the walk covered everything the page needs; else why it stopped, and where. */
  stopped: { reason: StopReason; boundary: string } | null;
  collected: Collected;
  /** The walk's counts (of one share: what it read and visited). */
  walk: WalkStats;
  entries: EntryCounts;
  /**
   * The scan hung inside a file-system call and was stopped (`now`: this scan, answered
   * from its last reported boundary; `before`: an earlier scan of the same root).
   */
  hung?: "now" | "before";
  /** The outcomes of the requests walked with this one (`ScanPlan.joined`), in its order. */
  joined?: ScanOutcome[];
}

type Needs = Pick<SearchRequest, "order" | "limit" | "after">;

/** Collects the matches of one scan (or one share of it). */
export class Collector {
  readonly #request: Needs;
  readonly #keepAll: number;
  readonly #first: TopK<Match>;
  readonly #walkPrefix: Match[] = [];
  #all: Match[] | null;
  /** A path_asc walk stopped because nothing later could matter. */
  #stoppedEarly = false;
  /** `all` stopped short: a path_asc walk ended at `keepAll` matches. */
  #allCut = false;
  #total = 0;

  /** `keepAll`: also keep every match, up to this many (0: don't). */
  constructor(request: Needs, keepAll = 0) {
    this.#request = request;
    this.#keepAll = keepAll;
    const order = keyOrder(request.order);
    this.#first = new TopK<Match>(request.limit + 1, order);
    this.#all = keepAll > 0 ? [] : null;
  }

  /** Takes one match (in walk order); true when nothing later in the walk can matter. */
  add(match: Match): boolean {
    this.#total++;
    const { after, limit, order } = this.#request;
    const keepAll = this.#keepAll;
    if (after?.key && keyOrder(order)(match, after.key) <= 0) return false;
    this.#first.add(match);
    if (this.#walkPrefix.length <= limit) this.#walkPrefix.push(match);
    if (this.#all !== null) {
      if (this.#all.length < keepAll) this.#all.push(match);
      else this.#all = null; // too many to keep (time orders): memory stays bounded
    }
    if (!isWalkOrder(order)) return false;
    // path_asc: once limit + 1 matches are in (or, when keeping all, `keepAll` of
    // them), nothing later in the walk can be among them.
    if (this.#all === null) this.#stoppedEarly = this.#first.size > limit;
    else this.#stoppedEarly = this.#allCut = this.#all.length >= keepAll;
    return this.#stoppedEarly;
  }

  /**
   * For the time orders, once the page's `limit + 1` matches after the cursor are in: the
   * last of them. Nothing that comes after it in the order can change the page, nor the
   * matches in walk order a truncated page is cut from (they are all in by then).
   */
  worst(): Match | null {
    return isWalkOrder(this.#request.order) ? null : this.#first.last ?? null;
  }

  /** The matches in walk order so far (a copy): what a truncated page is cut from. */
  walkPrefix(): Match[] {
    return [...this.#walkPrefix];
  }

  /** The outcome, once the walk has ended. */
  finish(end: WalkEnd, walk: WalkStats, entries: EntryCounts): ScanOutcome {
    const { order, limit, after } = this.#request;
    // A path_asc walk that keeps all goes past its page; if a limit stops it there,
    // the page itself is still complete, as it is for a walk that stopped early.
    const pageFull = isWalkOrder(order) && this.#first.size > limit;
    const stopped = end.complete || pageFull
      ? null
      : { reason: end.reason, boundary: end.boundary };
    const all = stopped === null && this.#all !== null ? this.#all.sort(keyOrder(order)) : null;
    // The walk saw the whole query unless it resumed after a boundary, sought to a
    // path_asc key (scan.ts), or ended early.
    const sawAll = end.complete && !this.#stoppedEarly &&
      (after === null || (after.boundary === null && !isWalkOrder(order)));
    return {
      stopped,
      collected: {
        first: this.#first.sorted(),
        walkPrefix: this.#walkPrefix,
        all,
        allComplete: all !== null && end.complete && !this.#allCut,
        total: sawAll ? this.#total : null,
      },
      walk,
      entries,
    };
  }
}

/**
 * Merges the outcomes of a scan's shares (shares.ts) into the outcome one whole scan would
 * have had, or `null` when it cannot: when the file or folder limit may have stopped one
 * whole walk, the shares do not know where (each counts only what it read), so the caller
 * scans again whole. Otherwise every entry was visited by exactly one share, and each
 * share, walking in path order, dealt with every entry of its own up to its boundary; a
 * time-out may stop them at different places: the merged boundary is then the smallest,
 * and whatever a share found beyond it is dropped (contract §11).
 */
export function mergeShares(
  outcomes: ScanOutcome[],
  request: Needs & Pick<SearchRequest, "limits">,
  keepAll = 0,
): ScanOutcome | null {
  const first = outcomes[0]!;
  if (outcomes.length === 1) return first;
  const walk = mergedWalk(outcomes);
  const { maxFilesScanned, maxDirectoriesScanned } = request.limits;
  const counted = outcomes.some((o) => o.stopped !== null && o.stopped.reason !== "timeout");
  if (
    counted || walk.scannedFiles >= maxFilesScanned ||
    walk.scannedDirectories >= maxDirectoriesScanned
  ) return null;
  const order = keyOrder(request.order);
  const top = new TopK<Match>(request.limit + 1, order);
  let stopped: ScanOutcome["stopped"] = null;
  for (const o of outcomes) {
    if (o.stopped && (stopped === null || o.stopped.boundary < stopped.boundary)) {
      stopped = o.stopped;
    }
  }
  const boundary = stopped?.boundary;
  const within = (m: Match) => boundary === undefined || m.path <= boundary;
  for (const o of outcomes) for (const m of o.collected.first) if (within(m)) top.add(m);
  const firstMatches = top.sorted();
  const walkPrefix = outcomes.flatMap((o) => o.collected.walkPrefix).filter(within)
    .sort((a, b) => comparePaths(a.path, b.path)).slice(0, request.limit + 1);
  const entries = {
    skipped: outcomes.reduce((sum, o) => sum + o.entries.skipped, 0),
    unknownTime: outcomes.reduce((sum, o) => sum + o.entries.unknownTime, 0),
    vcs: outcomes.reduce((sum, o) => sum + o.entries.vcs, 0),
  };
  const totals = outcomes.map((o) => o.collected.total);
  const total = stopped === null && totals.every((t) => t !== null)
    ? totals.reduce((sum: number, t) => sum + t!, 0)
    : null;
  let all: Match[] | null = null;
  // Shares cut short stop at different places: their partial lists do not join up.
  if (!stopped && outcomes.every((o) => o.collected.all !== null && o.collected.allComplete)) {
    const merged = outcomes.flatMap((o) => o.collected.all!);
    all = merged.length <= keepAll ? merged.sort(order) : null;
  }
  const hung = outcomes.some((o) => o.hung === "now") ? "now" : undefined;
  return {
    stopped,
    collected: { first: firstMatches, walkPrefix, all, allComplete: all !== null, total },
    walk,
    entries,
    ...(hung ? { hung } : {}),
  };
}

/** The shares' counts as one walk's: each listing the shares all read counted once. */
function mergedWalk(outcomes: ScanOutcome[]): WalkStats {
  const sum = (count: (walk: WalkStats) => number) =>
    outcomes.reduce((total, o) => total + count(o.walk), 0);
  const shared = Math.max(...outcomes.map((o) => o.walk.sharedDirectories ?? 0));
  return {
    scannedDirectories: sum((w) => w.scannedDirectories - (w.sharedDirectories ?? 0)) + shared,
    scannedFiles: sum((w) => w.scannedFiles),
    skipped: sum((w) => w.skipped),
    excluded: sum((w) => w.excluded),
  };
}

/**
 * `outcome` as an answer hands it on: the matches in walk order are read only to cut a
 * truncated page (paging.ts), so a scan that was not stopped leaves them out, about half of
 * what a page costs to check, to clone between isolates and to send to a session. Not for
 * one share of a walk: {@linkcode mergeShares} reads every share's.
 */
export function handedOn(outcome: ScanOutcome): ScanOutcome {
  if (outcome.stopped !== null || outcome.collected.walkPrefix.length === 0) return outcome;
  return { ...outcome, collected: { ...outcome.collected, walkPrefix: [] } };
}
