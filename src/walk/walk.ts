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
import { isFsError } from "../errors.ts";
import type { FsPort } from "../ports/mod.ts";
import { hostRules, LeftRootError } from "../security/mod.ts";
import { folderOf, type Listing, readListing } from "./read_listing.ts";
import { ownerOf, SHARED_DEPTH } from "./shares.ts";
import { type WalkOptions, withDefaults } from "./walk_options.ts";

export type { WalkOptions } from "./walk_options.ts";

/** Why a walk stopped early. */
export type StopReason = "files" | "directories" | "timeout";

/** Counters a walk keeps (contract §8). */
export interface WalkStats {
  /** Directory listings read. */
  scannedDirectories: number;
  /** Of those, listings every share of a split walk reads (`WalkOptions.share`): the top ones. */
  sharedDirectories?: number;
  /** Non-directory entries visited. */
  scannedFiles: number;
  /** Entries skipped because they vanished, could not be read, or left the root. */
  skipped: number;
  /** Entries left out by the exclusion; a folder left out counts once, its contents not at all. */
  excluded: number;
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
  /**
   * A folder's own size, set by a visitor that took its `lstat`: the stat travels with the
   * entry, and the walk reads the folder's listing by it (read_listing.ts) without a
   * second `lstat`.
   */
  size?: number;
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
  /** Read by every share of a split walk: its entries are each visited by their owner. */
  shared: boolean;
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
  const { boundary: after, clock, limits, exclusion, share } = options;
  const split = share.count > 1;
  const mine = (path: string) => ownerOf(path, share.count) === share.index;
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

  if (options.visitStart && share.index === 0 && (after === null || options.startPath > after)) {
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
  /** The sizes of folders visited and not yet read, by path (`WalkEntry.size`). */
  const sizes = new Map<string, number>();
  /** Reads a listing; `counts`: its skips are this share's (a shared one's, its owner's). */
  const open = async (
    abs: string,
    prefix: string,
    depth: number,
    shared: boolean,
    size?: number,
  ) => {
    const counts = !shared ? true : depth === 1 ? share.index === 0 : mine(folderOf(prefix));
    const refused = exclusion?.refused ?? 0; // its ignore files not used (contract §17)
    try {
      const listing = await readListing(fs, abs, prefix, options, depth, size);
      stats.scannedDirectories++;
      if (shared) stats.sharedDirectories = (stats.sharedDirectories ?? 0) + 1;
      if (counts) stats.skipped += listing.undecodable + (exclusion?.refused ?? 0) - refused;
      stack.push({ abs, prefix, depth, listing, index: 0, shared });
    } catch (err) {
      if (depth === 1) throw err; // the start's own listing failing fails the request
      if (!isFsError(err) && !(err instanceof LeftRootError)) throw err;
      if (counts) stats.skipped++;
    }
  };
  await open(options.startAbs, startPrefix, 1, split);

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
      const size = sizes.get(prefix);
      sizes.delete(prefix);
      if (whollyBefore(prefix, after)) continue;
      if (exclusion?.excludes(folderOf(prefix), true)) continue; // counted as an entry
      // Below the shared listings, each subtree is its owner's alone.
      const shared = frame.shared && frame.depth < SHARED_DEPTH;
      if (frame.shared && !shared && !mine(folderOf(prefix))) continue;
      const reason = limitReached(true, true);
      if (reason) return stop(reason);
      await open(frame.abs + SEP + key.slice(0, -1), prefix, frame.depth + 1, shared, size);
      continue;
    }
    const path = frame.prefix + key;
    if (after !== null && path <= after) continue;
    if (frame.shared && !mine(path)) {
      if (boundary !== null) boundary = path; // another share's: visited there, passed here
      continue;
    }
    const isDirectory = directories.has(key);
    if (exclusion?.excludes(path, isDirectory)) {
      stats.excluded++;
      boundary = path;
      continue;
    }
    const reason = limitReached(isDirectory, false);
    if (reason) return stop(reason);
    const entry: WalkEntry = { path, abs: frame.abs + SEP + key, depth: frame.depth, isDirectory };
    const enough = visit(entry);
    if (entry.size !== undefined) sizes.set(path + "/", entry.size);
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
