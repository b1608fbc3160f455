/**
 * Pure containment checks on absolute paths (contract §2, §6, §13 layer 1).
 *
 * Containment is decided segment by segment through `path.relative`, never by a
 * string prefix, so `/allowed_evil` is not inside `/allowed`. The rules of either
 * platform can be passed in, so the Windows rules run in tests on Linux too.
 *
 * @module
 */
import path from "node:path";

/** The path functions of one platform: `path.posix` or `path.win32`. */
export type PathRules = typeof path.posix;

/** The rules of the platform we run on. */
export const hostRules: PathRules = path;

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
  return rules === path.win32 ? normalized.toLowerCase() : normalized;
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
  if (rules === path.posix && plainlyBelow(parent, child)) return true;
  const rel = rules.relative(parent, child);
  if (rel === "") return true;
  if (rules.isAbsolute(rel)) return false; // another drive or UNC share
  return rel !== ".." && !rel.startsWith(".." + rules.sep) &&
    !(rules === path.win32 && rel.startsWith("../"));
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
  return ch === "/" || (rules === path.win32 && ch === "\\");
}

/**
 * The folder a normalized absolute path is in (`""` above the top): the one way the engine
 * goes up a path it holds (the index's folders, its feed, its watch plan).
 */
export function folderAbove(p: string, rules: PathRules = hostRules): string {
  return p.slice(0, Math.max(p.lastIndexOf(rules.sep), 0));
}
