/**
 * The walk in path order (DECISIONS §8, §11).
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
import type { FsPort } from "./fs_port.ts";
import { hostRules } from "../security/path_guard.ts";
import type { Guard } from "../security/guard.ts";
import { assertStillInside, LeftRootError } from "../security/realpath_guard.ts";
import type { Clock } from "./clock.ts";
import { isFsError } from "../errors.ts";

/** Why a walk stopped early. */
export type StopReason = "files" | "directories" | "timeout";

/** Counters a walk keeps (DECISIONS §8). */
export interface WalkStats {
  /** Directory listings read. */
  scannedDirectories: number;
  /** Non-directory entries visited. */
  scannedFiles: number;
  /** Entries skipped because they vanished, could not be read, or left the root. */
  skipped: number;
}

/** Options of {@linkcode walk}. */
export interface WalkOptions {
  /** Absolute real path of the start. */
  startAbs: string;
  /** Root-relative path of the start (`""` for the root itself). */
  startRel: string;
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
  /** Resume strictly after this path (a cursor's `w`); `null` for the start. */
  after: string | null;
  /** Stop before visiting a file past this many files. */
  maxFiles: number;
  /** Stop before reading a listing past this many listings. */
  maxDirectories: number;
  /** Stop once `clock.now()` reaches this. */
  deadline: number;
  clock: Clock;
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

interface Item {
  key: string;
  name: string;
  isDirectory: boolean;
  subtree: boolean;
}

interface Frame {
  abs: string;
  /** Prefix of the children's paths: `""` or `"dir/"`. */
  prefix: string;
  depth: number;
  items: Item[];
  index: number;
}

const SEP = hostRules.sep;

/**
 * Walks in path order, calling `visit` for each entry past `options.after`. A visitor
 * that returns `true` says nothing later can matter: the walk ends there, complete.
 * Symlinks are never followed; nothing but directories is ever opened.
 *
 * @example
 * ```ts
 * const stats = { scannedDirectories: 0, scannedFiles: 0, skipped: 0 };
 * walk(denoFs, { startAbs: "/srv/docs", startRel: "", startIsDirectory: true,
 *   visitStart: false, maxDepth: 256, rootReal: "/srv/docs", guard: strictGuard, after: null,
 *   maxFiles: Infinity, maxDirectories: Infinity, deadline: Infinity,
 *   clock: systemClock }, stats, (e) => console.log(e.path));
 * ```
 */
export function walk(
  fs: FsPort,
  options: WalkOptions,
  stats: WalkStats,
  visit: (entry: WalkEntry) => boolean | void,
): WalkEnd {
  const { after, clock } = options;
  let boundary: string | null = null;

  // Limits only apply once this walk has visited something, so every call progresses.
  const limitReached = (isDirectory: boolean, listing: boolean): StopReason | null => {
    if (boundary === null) return null;
    if (listing && stats.scannedDirectories >= options.maxDirectories) return "directories";
    if (!listing && !isDirectory && stats.scannedFiles >= options.maxFiles) return "files";
    if (clock.now() >= options.deadline) return "timeout";
    return null;
  };
  const stop = (reason: StopReason): WalkEnd => ({ complete: false, reason, boundary: boundary! });

  if (options.visitStart && (after === null || options.startRel > after)) {
    const enough = visit({
      path: options.startRel,
      abs: options.startAbs,
      depth: 0,
      isDirectory: options.startIsDirectory,
    });
    if (!options.startIsDirectory) stats.scannedFiles++;
    boundary = options.startRel;
    if (enough === true) return { complete: true };
  }
  if (!options.startIsDirectory || options.maxDepth < 1) return { complete: true };
  const startPrefix = options.startRel === "" ? "" : options.startRel + "/";
  if (whollyBefore(startPrefix, after)) return { complete: true };

  const stack: Frame[] = [];
  const open = (abs: string, prefix: string, depth: number): void => {
    try {
      const items = readItems(fs, abs, options, depth);
      stats.scannedDirectories++;
      stack.push({ abs, prefix, depth, items, index: 0 });
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
    items: readItems(fs, options.startAbs, options, 1),
    index: 0,
  });
  stats.scannedDirectories++;

  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.index >= frame.items.length) {
      stack.pop();
      continue;
    }
    const item = frame.items[frame.index++]!;
    const path = frame.prefix + item.name;
    if (item.subtree) {
      const prefix = path + "/";
      if (whollyBefore(prefix, after)) continue;
      const reason = limitReached(true, true);
      if (reason) return stop(reason);
      open(frame.abs + SEP + item.name, prefix, frame.depth + 1);
      continue;
    }
    if (after !== null && path <= after) continue;
    const reason = limitReached(item.isDirectory, false);
    if (reason) return stop(reason);
    const enough = visit({
      path,
      abs: frame.abs + SEP + item.name,
      depth: frame.depth,
      isDirectory: item.isDirectory,
    });
    if (!item.isDirectory) stats.scannedFiles++;
    boundary = path;
    if (enough === true) return { complete: true };
  }
  return { complete: true };
}

/** Whether every path starting with `prefix` is at or before `after`. */
function whollyBefore(prefix: string, after: string | null): boolean {
  return after !== null && prefix !== "" && after > prefix && !after.startsWith(prefix);
}

/**
 * Reads and orders one directory's items.
 *
 * @throws `Deno.errors.*` from the listing, or {@linkcode LeftRootError}.
 */
function readItems(fs: FsPort, abs: string, options: WalkOptions, depth: number): Item[] {
  assertStillInside(fs, options.rootReal, abs, options.guard);
  const items: Item[] = [];
  for (const entry of fs.readDir(abs)) {
    const isDirectory = entry.isDirectory;
    items.push({ key: entry.name, name: entry.name, isDirectory, subtree: false });
    if (isDirectory && depth < options.maxDepth) {
      items.push({ key: entry.name + "/", name: entry.name, isDirectory, subtree: true });
    }
  }
  items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return items;
}
