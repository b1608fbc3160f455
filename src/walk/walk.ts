/**
 * The walk in path order (contract §8, §11).
 *
 * Each directory's children are visited in the order of their keys: a child `n` is
 * visited at key `n`, and a directory child's subtree at key `n + "/"`. So the
 * root-relative paths visited only ever increase, and at any moment the entries
 * visited are exactly those with a path up to some boundary. A walk can stop at a
 * limit and a later walk can resume strictly after that boundary, skipping every
 * subtree that lies wholly at or before it.
 *
 * @module
 */
import type { Limits } from "../config.ts";
import { isFsError } from "../errors.ts";
import { type Clock, type FsPort, systemClock } from "../ports/mod.ts";
import { type Guard, hostRules, LeftRootError, strictGuard } from "../security/mod.ts";
import type { Exclusion } from "./exclusion.ts";
import { folderOf, type Listing, readListing } from "./read_listing.ts";

/** Why a walk stopped early. */
export type StopReason = "files" | "directories" | "timeout";

/** Counters a walk keeps (contract §8). */
export interface WalkStats {
  /** Directory listings read. */
  scannedDirectories: number;
  /** Non-directory entries visited. */
  scannedFiles: number;
  /** Entries skipped because they vanished, could not be read, or left the root. */
  skipped: number;
  /** Entries left out by the exclusion; a folder left out counts once, its contents not at all. */
  excluded: number;
}

/** Options of {@linkcode walk}, in the manner of std's `WalkOptions`: all but where to start optional. */
export interface WalkOptions {
  /** Absolute path of the start: real, except that a last component that is a link stays one. */
  startAbs: string;
  /**
   * Root-relative path of the start (`""` for the root itself).
   *
   * @default {""}
   */
  startPath?: string;
  /**
   * Whether the start is a directory (else only the start itself can be visited).
   *
   * @default {true}
   */
  startIsDirectory?: boolean;
  /**
   * Whether the start itself is visited, at depth 0.
   *
   * @default {false}
   */
  visitStart?: boolean;
  /**
   * Deepest depth visited; directories at this depth are not read.
   *
   * @default {Infinity}
   */
  maxDepth?: number;
  /**
   * Real path of the root: a directory whose real path leaves it is skipped, not read.
   *
   * @default {startAbs}
   */
  rootReal?: string;
  /**
   * Layer 1's containment check.
   *
   * @default {strictGuard}
   */
  guard?: Guard;
  /**
   * Resume strictly after this path (a cursor's boundary); `null` for the start.
   *
   * @default {null}
   */
  boundary?: string | null;
  /**
   * Stop before visiting a file past `maxFilesScanned` files or reading a listing past
   * `maxDirectoriesScanned` listings, or once `scanTimeoutMs` have passed since `startedAt`.
   *
   * @default {no limit}
   */
  limits?: Pick<Limits, "maxFilesScanned" | "maxDirectoriesScanned" | "scanTimeoutMs">;
  /**
   * When the time limit counts from.
   *
   * @default {clock.now()}
   */
  startedAt?: number;
  /**
   * The clock of the time limit.
   *
   * @default {systemClock}
   */
  clock?: Clock;
  /**
   * What to leave out: such entries are not visited, such folders not descended into.
   *
   * @default {null}
   */
  exclusion?: Exclusion | null;
}

/** The options with every default applied: done once, when a walk starts. */
type Walking = Required<WalkOptions>;

const NO_LIMITS = {
  maxFilesScanned: Infinity,
  maxDirectoriesScanned: Infinity,
  scanTimeoutMs: Infinity,
};

function withDefaults(options: WalkOptions): Walking {
  const clock = options.clock ?? systemClock;
  return {
    startAbs: options.startAbs,
    startPath: options.startPath ?? "",
    startIsDirectory: options.startIsDirectory ?? true,
    visitStart: options.visitStart ?? false,
    maxDepth: options.maxDepth ?? Infinity,
    rootReal: options.rootReal ?? options.startAbs,
    guard: options.guard ?? strictGuard,
    boundary: options.boundary ?? null,
    limits: options.limits ?? NO_LIMITS,
    startedAt: options.startedAt ?? clock.now(),
    clock,
    exclusion: options.exclusion ?? null,
  };
}

/** One entry the walk visits. */
export interface WalkEntry {
  /** Root-relative, `/`-separated. */
  path: string;
  /** Absolute path to stat it by. */
  abs: string;
  /** Depth below the start (the start is 0). */
  depth: number;
  /** What the listing says: real directory, link, or something else. */
  isDirectory: boolean;
}

/** How a walk ended. */
export type WalkEnd =
  | { complete: true }
  | { complete: false; reason: StopReason; boundary: string };

interface Frame {
  abs: string;
  /** Prefix of the children's paths: `""` or `"dir/"`. */
  prefix: string;
  depth: number;
  listing: Listing;
  index: number;
}

const SEP = hostRules.sep;

/**
 * Walks in path order, calling `visit` for each entry past `options.boundary`. A visitor
 * that returns `true` says nothing later can matter: the walk ends there, complete.
 * Symlinks are never followed; nothing but directories is ever opened.
 *
 * @example
 * ```ts
 * const stats = { scannedDirectories: 0, scannedFiles: 0, skipped: 0, excluded: 0 };
 * await walk(denoFs, { startAbs: "/srv/docs" }, stats, (e) => console.log(e.path));
 * ```
 */
export async function walk(
  fs: FsPort,
  walkOptions: WalkOptions,
  stats: WalkStats,
  visit: (entry: WalkEntry) => boolean | void,
): Promise<WalkEnd> {
  const options = withDefaults(walkOptions);
  const { boundary: after, clock, limits, exclusion } = options;
  const deadline = options.startedAt + limits.scanTimeoutMs;
  let boundary: string | null = null;

  // Limits only apply once this walk has visited something, so every call progresses.
  const limitReached = (isDirectory: boolean, listing: boolean): StopReason | null => {
    if (boundary === null) return null;
    if (listing && stats.scannedDirectories >= limits.maxDirectoriesScanned) return "directories";
    if (!listing && !isDirectory && stats.scannedFiles >= limits.maxFilesScanned) return "files";
    if (clock.now() >= deadline) return "timeout";
    return null;
  };
  const stop = (reason: StopReason): WalkEnd => ({ complete: false, reason, boundary: boundary! });

  if (options.visitStart && (after === null || options.startPath > after)) {
    const enough = visit({
      path: options.startPath,
      abs: options.startAbs,
      depth: 0,
      isDirectory: options.startIsDirectory,
    });
    if (!options.startIsDirectory) stats.scannedFiles++;
    boundary = options.startPath;
    if (enough === true) return { complete: true };
  }
  if (!options.startIsDirectory || options.maxDepth < 1) return { complete: true };
  const startPrefix = options.startPath === "" ? "" : options.startPath + "/";
  if (whollyBefore(startPrefix, after)) return { complete: true };

  const stack: Frame[] = [];
  const open = async (abs: string, prefix: string, depth: number): Promise<void> => {
    try {
      const listing = await readListing(fs, abs, prefix, options, depth);
      stats.scannedDirectories++;
      stats.skipped += listing.undecodable;
      stack.push({ abs, prefix, depth, listing, index: 0 });
    } catch (err) {
      if (!isFsError(err) && !(err instanceof LeftRootError)) throw err;
      stats.skipped++;
    }
  };
  // The start's own listing failing fails the request (the caller maps the error).
  const listing = await readListing(fs, options.startAbs, startPrefix, options, 1);
  stack.push({ abs: options.startAbs, prefix: startPrefix, depth: 1, listing, index: 0 });
  stats.scannedDirectories++;
  stats.skipped += listing.undecodable;

  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const { keys, directories } = frame.listing;
    if (frame.index >= keys.length) {
      stack.pop();
      continue;
    }
    const key = keys[frame.index++]!;
    if (key.endsWith("/")) {
      const prefix = frame.prefix + key;
      if (whollyBefore(prefix, after)) continue;
      if (exclusion?.excludes(folderOf(prefix), true)) continue; // counted as an entry
      const reason = limitReached(true, true);
      if (reason) return stop(reason);
      await open(frame.abs + SEP + key.slice(0, -1), prefix, frame.depth + 1);
      continue;
    }
    const path = frame.prefix + key;
    if (after !== null && path <= after) continue;
    const isDirectory = directories.has(key);
    if (exclusion?.excludes(path, isDirectory)) {
      stats.excluded++;
      boundary = path;
      continue;
    }
    const reason = limitReached(isDirectory, false);
    if (reason) return stop(reason);
    const enough = visit({ path, abs: frame.abs + SEP + key, depth: frame.depth, isDirectory });
    if (!isDirectory) stats.scannedFiles++;
    boundary = path;
    if (enough === true) return { complete: true };
  }
  return { complete: true };
}

/** Whether every path starting with `prefix` is at or before the boundary `after`. */
function whollyBefore(prefix: string, after: string | null): boolean {
  return after !== null && prefix !== "" && after > prefix && !after.startsWith(prefix);
}
