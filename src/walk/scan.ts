/**
 * One scan (or one share of it): resolve the start path inside the root, then walk;
 * the filter decides which entries match; the collector keeps what a page needs. Runs
 * inside a scan worker, reading only through the {@linkcode FsPort} it is given.
 *
 * @module
 */
import { fromFsError, isFsError, symlinkEscape } from "../errors.ts";
import type { Clock, FsPort } from "../ports/mod.ts";
import { type Guard, LeftRootError, resolveStart } from "../security/mod.ts";
import { Collector, type EntryCounts, type ScanOutcome } from "./collector.ts";
import { compileExclusion } from "./exclusion.ts";
import { compileFilter, type Match } from "./filter.ts";
import { depthLimit, isWalkOrder, type SearchRequest } from "../query/mod.ts";
import { insideVcs } from "./vcs.ts";
import { walk, type WalkEnd, type WalkEntry, type WalkStats } from "./walk.ts";
import { type Share, WHOLE } from "./shares.ts";
import type { JoinedRequest } from "./joint.ts";

/** What a scan reads with: the file system, the clock and layer 1 of the sandbox. */
export interface ScanTools {
  fs: FsPort;
  clock: Clock;
  guard: Guard;
  /** How often progress is reported. Default {@linkcode PROGRESS_INTERVAL_MS}. */
  progressIntervalMs?: number;
}

/**
 * What a running scan reports: counts for the client, and enough for the server to
 * answer with a truncated page (contract §11) should the scan hang from then on.
 */
export interface ScanProgress {
  /** Entries visited so far; only ever grows. */
  scanned: number;
  files: number;
  directories: number;
  /** Every entry at or before this path has been dealt with; `null` before the first. */
  boundary: string | null;
  /** The collector's matches in walk order so far, all at or before `boundary`. */
  walkPrefix: Match[];
}

/**
 * How a scan runs, besides its query: decided by what runs it, each value in one place.
 */
export interface ScanPlan {
  /** Which share of the walk it takes (shares.ts): decided by the worker scanner (or whole). */
  share: Share;
  /**
   * Also keep every match, up to this many, so later pages can be served without a scan
   * (0: don't): decided by the paging module.
   */
  keepAll: number;
  /**
   * Told the page's worst match whenever it changes, once the page is full (time orders,
   * see `Collector.worst`): what reads the entries may then leave out what comes after
   * it in the order. Decided by the index (focus.ts); a walk reads everything.
   */
  onWorst?: (worst: Match) => void;
  /**
   * Other requests walked in the same walk (joint.ts: the same root, start, excludes,
   * ignore files, depth and limits; each its own filter, order, page and `keepAll`):
   * their outcomes come in the outcome's `joined`, in this order. Decided by the index
   * service, for calls of several sessions during a build (contract §28a).
   */
  joined?: JoinedRequest[];
}

/** A whole scan that keeps only what its page needs. */
export const PLAIN: Readonly<ScanPlan> = Object.freeze({ share: WHOLE, keepAll: 0 });

/** Thrown inside a scan whose caller asked it to stop (the call was cancelled). */
export class ScanCancelled extends Error {
  constructor() {
    super("scan cancelled");
    this.name = "ScanCancelled";
  }
}

/** How often a running scan reports progress. */
export const PROGRESS_INTERVAL_MS = 250;

/**
 * Runs one scan. `checkpoint` is called before each entry: it may wait there (a fill gives
 * way to running calls), and once it says stop, the scan throws {@linkcode ScanCancelled}.
 *
 * @throws {ToolError} `PathNotFound`, `SymlinkEscapeDetected`, `AccessDenied` or
 * `IOFailure` for the start path (contract §5 step 9).
 */
export async function scan(
  request: SearchRequest,
  tools: ScanTools,
  plan: ScanPlan = PLAIN,
  onProgress?: (progress: ScanProgress) => void,
  checkpoint?: () => boolean,
): Promise<ScanOutcome> {
  const { fs, clock, guard } = tools;
  const interval = tools.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  const startedAt = clock.now();
  const { root, start, after } = request;
  const { share } = plan;
  const exists = (path: string) => {
    try {
      resolveStart(fs, root, path, guard);
      return true;
    } catch {
      return false;
    }
  };
  const resolved = await onStartPath(
    start.path,
    () => resolveStart(fs, root, start.path, guard),
    exists,
  );
  const walkStats: WalkStats = { scannedDirectories: 0, scannedFiles: 0, skipped: 0, excluded: 0 };
  const jobs = [{ request, keepAll: plan.keepAll }, ...plan.joined ?? []].map((j) => ({
    request: j.request,
    filter: compileFilter(j.request.filter),
    collector: new Collector(j.request, j.keepAll),
    entries: { skipped: 0, unknownTime: 0, vcs: 0 } as EntryCounts,
    enough: false,
  }));
  const finish = (end: WalkEnd): ScanOutcome => {
    const [main, ...joined] = jobs.map((j) => j.collector.finish(end, { ...walkStats }, j.entries));
    return plan.joined ? { ...main!, joined } : main!;
  };
  // A request that matches nothing takes no part in the walk.
  for (const job of jobs) job.enough = job.filter.matchesNothing;
  if (jobs.every((job) => job.enough)) return finish({ complete: true });
  const exclusion = compileExclusion(request.filter, fs, root.realPath);
  // What every share reads alike before its walk is counted by the first share alone.
  const counts = share.index === 0;
  if (exclusion?.excludesStart(start.path, resolved.isDirectory)) {
    if (counts) walkStats.excluded++;
    if (counts) walkStats.skipped += exclusion.refused;
    return finish({ complete: true });
  }
  if (counts) walkStats.skipped += exclusion?.refused ?? 0; // ignore files not used (§17)
  const main = jobs[0]!;

  let visited = 0;
  let lastReport = startedAt;
  let boundary: string | null = null; // the last entry dealt with
  const visit = (entry: WalkEntry): boolean => {
    if (checkpoint?.()) throw new ScanCancelled();
    if (onProgress) {
      const now = clock.now();
      if (now - lastReport >= interval) {
        lastReport = now;
        onProgress({
          scanned: visited,
          files: walkStats.scannedFiles,
          directories: walkStats.scannedDirectories,
          boundary,
          walkPrefix: main.collector.walkPrefix(),
        });
      }
    }
    visited++;
    boundary = entry.path;
    let info: Deno.FileInfo | null | undefined; // read once, for the first job that wants it
    for (const job of jobs) {
      if (job.enough) continue;
      if (!job.filter.wants(entry.path, entry.isDirectory)) continue;
      if (info === undefined) {
        try {
          info = fs.lstat(entry.abs);
        } catch (err) {
          if (!isFsError(err)) throw err;
          info = null;
        }
        if (info && entry.isDirectory) entry.size = info.size; // the walk lists it by this stat
      }
      if (info === null) {
        job.entries.skipped++;
        continue;
      }
      const verdict = job.filter.judge(entry.path, entry.isDirectory, info);
      if (verdict === "noTime") job.entries.skipped++;
      else if (verdict === "unknownTime") job.entries.unknownTime++;
      else if (verdict !== "outside") {
        // Inside a version-control folder (contract §27): left out, and counted.
        if (!job.request.filter.includeVcs && insideVcs(entry.path, start.path)) {
          job.entries.vcs++;
          continue;
        }
        job.enough = job.collector.add(verdict);
        if (job === main && plan.onWorst) {
          const worst = main.collector.worst();
          if (worst) plan.onWorst(worst);
        }
      }
    }
    return jobs.every((job) => job.enough);
  };

  // path_asc: a cursor's key is a walk position too, so the walk seeks straight to it.
  let resumeAfter = after?.boundary ?? null;
  const key = after?.key;
  if (isWalkOrder(request.order) && key && (resumeAfter === null || key.path > resumeAfter)) {
    resumeAfter = key.path;
  }
  const end = await onStartPath(start.path, () =>
    walk(
      fs,
      {
        startAbs: resolved.abs,
        startPath: start.path,
        startIsDirectory: resolved.isDirectory,
        visitStart: !resolved.isDirectory || (start.recursive && start.path !== ""),
        maxDepth: depthLimit(request), // a file start is only itself, at any depth
        rootReal: root.realPath,
        guard,
        boundary: resumeAfter,
        limits: request.limits,
        startedAt,
        clock,
        exclusion,
        share,
      },
      walkStats,
      visit,
    ));
  return finish(end);
}

/** Runs `fn`, turning a file-system error on the start path into our code. */
async function onStartPath<T>(
  startPath: string,
  fn: () => T | Promise<T>,
  exists?: (path: string) => boolean,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isFsError(err)) throw fromFsError(err, startPath, exists);
    if (err instanceof LeftRootError) throw symlinkEscape(startPath);
    throw err;
  }
}
