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
import type { Clock, FsPort } from "../ports/mod.ts";
import { assertStillInside, type Guard, hostRules, LeftRootError } from "../security/mod.ts";
import type { Exclusion } from "./exclusion.ts";

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

/** Options of {@linkcode walk}. */
export interface WalkOptions {
  /** Absolute path of the start: real, except that a last component that is a link stays one. */
  startAbs: string;
  /** Root-relative path of the start (`""` for the root itself). */
  startPath: string;
  /** Whether the start is a directory (else only the start itself can be visited). */
  startIsDirectory: boolean;
  /** Whether the start itself is visited, at depth 0. */
  visitStart: boolean;
  /** Deepest depth visited; directories at this depth are not read. */
  maxDepth: number;
  /** Real path of the root: a directory whose real path leaves it is skipped, not read. */
  rootReal: string;
  /** Layer 1's containment check. */
  guard: Guard;
  /** Resume strictly after this path (a cursor's boundary); `null` for the start. */
  boundary: string | null;
  /**
   * Stop before visiting a file past `maxFilesScanned` files or reading a listing past
   * `maxDirectoriesScanned` listings, or once `scanTimeoutMs` have passed since `startedAt`.
   */
  limits: Pick<Limits, "maxFilesScanned" | "maxDirectoriesScanned" | "scanTimeoutMs">;
  startedAt: number;
  clock: Clock;
  /** What to leave out: such entries are not visited, such folders not descended into. */
  exclusion?: Exclusion | null;
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

/**
 * One directory's listing, compact: its keys in order (a name, or a directory's name
 * plus "/" for its subtree; names never hold "/") and which names are directories.
 * Deno's own entry objects are dropped as soon as they are read (they cost ~400 bytes
 * each, which matters for a folder of 200,000 entries).
 */
interface Listing {
  keys: string[];
  directories: Set<string>;
}

/** The folder path of a listing's prefix: `""` or `"a/b"` for `"a/b/"`. */
function folderOf(prefix: string): string {
  return prefix === "" ? "" : prefix.slice(0, -1);
}

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
 * await walk(denoFs, { startAbs: "/srv/docs", startPath: "", startIsDirectory: true,
 *   visitStart: false, maxDepth: 256, rootReal: "/srv/docs", guard: strictGuard,
 *   boundary: null, limits: { maxFilesScanned: Infinity, maxDirectoriesScanned: Infinity,
 *   scanTimeoutMs: Infinity }, startedAt: Date.now(), clock: systemClock },
 *   stats, (e) => console.log(e.path));
 * ```
 */
export async function walk(
  fs: FsPort,
  options: WalkOptions,
  stats: WalkStats,
  visit: (entry: WalkEntry) => boolean | void,
): Promise<WalkEnd> {
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
      stack.push({ abs, prefix, depth, listing, index: 0 });
    } catch (err) {
      if (!isFsError(err) && !(err instanceof LeftRootError)) throw err;
      stats.skipped++;
    }
  };
  // The start's own listing failing fails the request (the caller maps the error).
  stack.push({
    abs: options.startAbs,
    prefix: startPrefix,
    depth: 1,
    listing: await readListing(fs, options.startAbs, startPrefix, options, 1),
    index: 0,
  });
  stats.scannedDirectories++;

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

/** Folders whose own size (as `lstat` reports it) is above this are streamed. */
export const LARGE_DIRECTORY_BYTES = 1024 * 1024;

/**
 * Reads and orders one directory's listing. A huge folder (by its own size: about
 * 30,000 entries on ext4) is read as a stream, so memory stays bounded; all others
 * in one synchronous call, which is several times faster.
 *
 * @throws `Deno.errors.*` from the listing, or {@linkcode LeftRootError}.
 */
function readListing(
  fs: FsPort,
  abs: string,
  prefix: string,
  options: WalkOptions,
  depth: number,
): Listing | Promise<Listing> {
  assertStillInside(fs, options.rootReal, abs, options.guard);
  const listing: Listing = { keys: [], directories: new Set() };
  const { exclusion } = options;
  const wanted: string[] = [];
  const add = (entry: Deno.DirEntry) => {
    listing.keys.push(entry.name);
    if (entry.isDirectory) {
      listing.directories.add(entry.name);
      if (depth < options.maxDepth) listing.keys.push(entry.name + "/");
    } else if (entry.isFile && exclusion?.wantsFile(entry.name)) {
      wanted.push(entry.name);
    }
  };
  const done = () => {
    listing.keys.sort(); // the default order compares UTF-16 code units, as `<` does
    exclusion?.enter(folderOf(prefix), abs, wanted);
    return listing;
  };
  if (!fs.holdsListing?.(abs) && fs.lstat(abs).size > LARGE_DIRECTORY_BYTES) {
    return (async () => {
      for await (const entry of fs.readDirStream(abs)) add(entry);
      return done();
    })();
  }
  for (const entry of fs.readDir(abs)) add(entry);
  return done();
}
