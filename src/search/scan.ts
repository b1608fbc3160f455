/**
 * One scan: resolve the start path inside the root, walk, filter, and keep the
 * bounded candidate lists a page is built from. Runs inside the scan worker; it
 * only reads through the {@linkcode FsPort} it is given.
 *
 * @module
 */
import { fromFsError, isFsError, symlinkEscape } from "../errors.ts";
import { type Guard, strictGuard } from "../security/guard.ts";
import { LeftRootError, resolveStart } from "../security/realpath_guard.ts";
import type { Clock } from "./clock.ts";
import type { FsPort } from "./fs_port.ts";
import { compileGlob } from "./glob.ts";
import { keyOrder } from "./order.ts";
import type { Sort, SortKey, TimeField } from "./query.ts";
import { TopK } from "./top_k.ts";
import { type StopReason, walk, type WalkEntry, type WalkStats } from "./walk.ts";

/** Everything a scan needs; plain data, so it crosses the worker boundary. */
export interface ScanRequest {
  /** Normalized absolute path of the root. */
  rootPath: string;
  /** Real path of the root. */
  rootReal: string;
  /** Normalized root-relative start path; `""` is the root. */
  startRel: string;
  timeField: TimeField;
  from: number | null;
  to: number | null;
  glob: string | null;
  recursive: boolean;
  /** Effective depth limit when recursive (the request's, capped by the server's). */
  maxDepth: number;
  includeFiles: boolean;
  includeDirectories: boolean;
  includeUnknownTime: boolean;
  sort: Sort;
  limit: number;
  /** Only items strictly after this key in `sort` order count. */
  afterKey: SortKey | null;
  /** Resume the walk strictly after this path. */
  afterPath: string | null;
  maxFiles: number;
  maxDirectories: number;
  timeoutMs: number;
  /** Also return every match, sorted, if the walk completes with at most this many (0: never). */
  collectAll: number;
  /**
   * Which share of the entries this scan stats: the `index`-th of every `count`
   * entries in walk order. Every share walks the same listings in the same order, so
   * the shares count alike and stop alike; their matches merge into exactly what one
   * whole scan finds (merge.ts).
   */
  partition: { index: number; count: number };
}

/** Counts reported while a scan runs. */
export interface ScanProgress {
  /** Entries visited so far; only ever grows. */
  scanned: number;
  files: number;
  directories: number;
}

/** How often a running scan reports progress. */
export const PROGRESS_INTERVAL_MS = 250;

/** One matching entry, with times as epoch milliseconds. */
export interface Match {
  path: string;
  isDirectory: boolean;
  sizeBytes: number | null;
  modified: number;
  created: number | null;
  /** Its key in the request's order. */
  key: SortKey;
}

/** What a scan found. */
export interface ScanOutcome {
  /** `null` when the walk completed; else why it stopped, and where. */
  stopped: { reason: StopReason; boundary: string } | null;
  /** The first `limit + 1` matches in the requested order. */
  bySort: Match[];
  /** The first `limit + 1` matches in path order. */
  byPath: Match[];
  /**
   * Every match in the requested order, when asked for (`collectAll`); else null. For
   * time orders it is all or nothing. A path_asc scan stops once it holds `collectAll`
   * matches: then `all` is every match up to its last one, and `allComplete` is false.
   */
  all: Match[] | null;
  /** Whether `all` runs to the end of the result set. */
  allComplete: boolean;
  stats: WalkStats;
  /** The part of `stats.skipped` that this scan's share of entries contributed. */
  entrySkipped: number;
}

/**
 * Runs one scan.
 *
 * @throws {ToolError} `PathNotFound`, `SymlinkEscapeDetected`, `AccessDenied` or
 * `IOFailure` for the start path (DECISIONS §5 step 9).
 */
export async function scan(
  fs: FsPort,
  clock: Clock,
  request: ScanRequest,
  guard: Guard = strictGuard,
  onProgress?: (progress: ScanProgress) => void,
): Promise<ScanOutcome> {
  const started = clock.now();
  const root = { path: request.rootPath, realPath: request.rootReal };
  const start = await onStartPath(
    request.startRel,
    () => resolveStart(fs, root, request.startRel, guard),
  );
  const stats: WalkStats = { scannedDirectories: 0, scannedFiles: 0, skipped: 0 };
  const nothingCanMatch = (!request.includeFiles && !request.includeDirectories) ||
    (request.from !== null && request.from === request.to);
  if (nothingCanMatch) return completeOutcome([], stats);
  const order = keyOrder(request.sort);
  const bySort = new TopK<Match>(request.limit + 1, (a, b) => order(a.key, b.key));
  const byPath: Match[] = [];

  const matchesGlob = request.glob === null ? null : compileGlob(request.glob);
  const { afterKey } = request;
  let all: Match[] | null = request.collectAll > 0 ? [] : null;
  // path_asc: once limit + 1 matches are in (or, when collecting, `collectAll` of them),
  // nothing later in the walk can be among them.
  const pathOrder = request.sort === "path_asc";
  let cut = false;
  const enough = () => {
    if (!pathOrder) return false;
    if (all === null) return bySort.size > request.limit;
    cut = all.length >= request.collectAll;
    return cut;
  };
  let visited = 0;
  let entrySkipped = 0;
  const { index: share, count: shares } = request.partition;
  let lastReport = started;
  const visit = (entry: WalkEntry): boolean => {
    visited++;
    if (onProgress) {
      const now = clock.now();
      if (now - lastReport >= PROGRESS_INTERVAL_MS) {
        lastReport = now;
        onProgress({
          scanned: visited,
          files: stats.scannedFiles,
          directories: stats.scannedDirectories,
        });
      }
    }
    return (visited - 1) % shares === share && consider(entry);
  };
  const consider = (entry: WalkEntry): boolean => {
    if (entry.isDirectory ? !request.includeDirectories : !request.includeFiles) return false;
    if (matchesGlob && !matchesGlob(entry.path)) return false;
    let info: Deno.FileInfo;
    try {
      info = fs.lstat(entry.abs);
    } catch (err) {
      if (!isFsError(err)) throw err;
      entrySkipped++;
      return false;
    }
    const match = toMatch(entry, info, request);
    if (match === undefined) entrySkipped++;
    if (!match) return false;
    if (afterKey && order(match.key, afterKey) <= 0) return false;
    bySort.add(match);
    if (byPath.length <= request.limit) byPath.push(match);
    if (all !== null) {
      if (all.length < request.collectAll) all.push(match);
      else all = null; // too many to keep (time orders): memory stays bounded
    }
    return enough();
  };

  // path_asc: a cursor's key is a walk position too, so the walk seeks straight to it.
  let afterPath = request.afterPath;
  if (pathOrder && afterKey && (afterPath === null || afterKey.p > afterPath)) {
    afterPath = afterKey.p;
  }
  const startIsDirectory = start.isDirectory;
  const end = await onStartPath(request.startRel, () =>
    walk(
      fs,
      {
        startAbs: start.real,
        startRel: request.startRel,
        startIsDirectory,
        visitStart: !startIsDirectory || (request.recursive && request.startRel !== ""),
        maxDepth: !startIsDirectory ? 0 : request.recursive ? request.maxDepth : 1,
        rootReal: request.rootReal,
        guard,
        after: afterPath,
        maxFiles: request.maxFiles,
        maxDirectories: request.maxDirectories,
        deadline: started + request.timeoutMs,
        clock,
      },
      stats,
      visit,
    ));
  // A path_asc scan that collects for a snapshot walks past its page; if a limit stops
  // it there, the page itself is still complete, as it is for a scan that stops early.
  const pageFull = pathOrder && bySort.size > request.limit;
  const complete = end.complete || pageFull;
  if (!end.complete) cut = true;
  return {
    stopped: complete ? null : { reason: end.reason, boundary: end.boundary },
    bySort: bySort.sorted(),
    byPath,
    all: complete && all !== null ? all.sort((a, b) => order(a.key, b.key)) : null,
    allComplete: complete && all !== null && !cut,
    stats: { ...stats, skipped: stats.skipped + entrySkipped },
    entrySkipped,
  };
}

/** A complete outcome with these candidates and nothing else (no snapshot, no stop). */
export function completeOutcome(bySort: Match[], stats: WalkStats): ScanOutcome {
  return {
    stopped: null,
    bySort,
    byPath: [],
    all: null,
    allComplete: false,
    stats,
    entrySkipped: 0,
  };
}

/**
 * Builds a match, or returns `null` when its time is outside the range and
 * `undefined` when it has no usable time at all (counted as skipped).
 */
function toMatch(
  entry: WalkEntry,
  info: Deno.FileInfo,
  request: ScanRequest,
): Match | null | undefined {
  const modified = info.mtime?.getTime() ?? null;
  if (modified === null) return undefined;
  const birth = info.birthtime?.getTime() ?? null;
  const created = birth === null || birth === 0 ? null : birth;
  const t = request.timeField === "modified" ? modified : created;
  if (t === null) {
    if (!request.includeUnknownTime) return null;
  } else if (
    (request.from !== null && t < request.from) || (request.to !== null && t >= request.to)
  ) {
    return null;
  }
  return {
    path: entry.path,
    isDirectory: entry.isDirectory,
    sizeBytes: entry.isDirectory ? null : info.size,
    modified,
    created,
    key: { t, p: entry.path },
  };
}

/** Runs `fn`, turning a file-system error on the start path into our code. */
async function onStartPath<T>(startRel: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isFsError(err)) throw fromFsError(err, startRel);
    if (err instanceof LeftRootError) throw symlinkEscape(startRel);
    throw err;
  }
}
