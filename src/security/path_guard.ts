/**
 * Pure containment checks on absolute paths (contract §2, §6, §13 layer 1).
 *
 * Containment is decided segment by segment through `path.relative`, never by a
 * string prefix, so `/allowed_evil` is not inside `/allowed`. The rules of either
 * platform can be passed in, so the Windows rules run in tests on Linux too.
 *
 * @module
 */
import { type PathRules, posixRules } from "./posix_rules.ts";

export type { PathRules };

/**
 * The rules of the platform we run on: `node:path`'s on Windows, else its POSIX rules as
 * posix_rules.ts computes them (no isolate starts Deno's Node layer for paths alone).
 */
export const hostRules: PathRules = Deno.build.os === "windows"
  ? (await import("node:path")).win32
  : posixRules;

/** Whether `rules` are Windows' (`\\` separates, drives and names compare without case). */
function windows(rules: PathRules): boolean {
  return rules.sep === "\\";
}

/**
 * Makes `p` absolute and normalized, without trailing separators (a file-system
 * root such as `/` or `C:\` keeps its one separator).
 *
 * @example
 * ```ts
 * normalizeAbsolute("/srv/docs/", path.posix); // "/srv/docs"
 * normalizeAbsolute("c:\\Data\\", path.win32); // "c:\\Data"
 * ```
 */
export function normalizeAbsolute(p: string, rules: PathRules = hostRules): string {
  const resolved = rules.resolve(p);
  const root = rules.parse(resolved).root;
  let end = resolved.length;
  while (end > root.length && isSeparator(resolved[end - 1], rules)) end--;
  return resolved.slice(0, end);
}

/**
 * The key two normalized absolute paths are compared by: the path itself, or on
 * Windows its lower-case form (NTFS names are case-insensitive by default).
 */
export function comparisonKey(normalized: string, rules: PathRules = hostRules): string {
  return windows(rules) ? normalized.toLowerCase() : normalized;
}

/**
 * Whether `child` is `parent` or lies below it. Both must be absolute.
 *
 * @example
 * ```ts
 * isWithin("/allowed", "/allowed/a/b", path.posix); // true
 * isWithin("/allowed", "/allowed_evil", path.posix); // false
 * isWithin("C:\\Data", "c:\\data\\x", path.win32); // true
 * ```
 */
export function isWithin(parent: string, child: string, rules: PathRules = hostRules): boolean {
  if (!windows(rules) && plainlyBelow(parent, child)) return true;
  const rel = rules.relative(parent, child);
  if (rel === "") return true;
  if (rules.isAbsolute(rel)) return false; // another drive or UNC share
  return rel !== ".." && !rel.startsWith(".." + rules.sep) &&
    !(windows(rules) && rel.startsWith("../"));
}

/**
 * Whether `child` is `parent`, a separator, and names without `.`, `..` or empty segments
 * (POSIX): then it resolves to below whatever `parent` resolves to, decided without
 * `path.relative` (a walk asks this once per folder). Anything else is left to it.
 */
function plainlyBelow(parent: string, child: string): boolean {
  return child.length > parent.length + 1 && child[parent.length] === "/" &&
    child.startsWith(parent) && !DOT_OR_EMPTY_SEGMENT.test(child.slice(parent.length));
}

const DOT_OR_EMPTY_SEGMENT = /\/(\.\.?)?(\/|$)/;

function isSeparator(ch: string | undefined, rules: PathRules): boolean {
  return ch === "/" || (windows(rules) && ch === "\\");
}

/**
 * The folder a normalized absolute path is in (`""` above the top): the one way the engine
 * goes up a path it holds (the index's folders, its feed, its watch plan).
 */
export function folderAbove(p: string, rules: PathRules = hostRules): string {
  return p.slice(0, Math.max(p.lastIndexOf(rules.sep), 0));
}
