/**
 * The lexical rules for the request's `path` (contract §6), the same on every OS.
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import { hostRules } from "./path_guard.ts";

const DRIVE_PREFIX = /^[A-Za-z]:/;
/** Segments of only dots and spaces, which Windows trims (`.. ` and `...` can mean `..`). */
const DOTS_AND_SPACES = /^[. ]+$/;

/**
 * Checks a request `path` and returns it normalized: root-relative, `/`-separated,
 * without `.`, `..` or empty segments; `""` means the root itself.
 *
 * The input is never trimmed or unquoted: what is checked is what is used.
 *
 * @throws {ToolError} `PathNotRelative` for `/x`, `\x`, `C:`, `C:\x`, `C:x`, UNC,
 * `\\?\` and `\\.\` forms; `PathTraversalDetected` when `..` climbs above the root,
 * and for a segment of only dots and spaces other than `.` and `..` (such as `...` or
 * `.. `), which Windows would trim into `.` or `..`; refused on every OS alike.
 *
 * @example
 * ```ts
 * normalizeRelativePath("docs\\2025/./a/../b"); // "docs/2025/b"
 * normalizeRelativePath("."); // ""
 * normalizeRelativePath("../etc"); // throws PathTraversalDetected
 * ```
 */
export function normalizeRelativePath(input: string): string {
  const slashed = input.replaceAll("\\", "/");
  if (slashed.startsWith("/") || DRIVE_PREFIX.test(slashed)) {
    throw new ToolError(
      "PathNotRelative",
      "'path' must be relative to the root, but it is absolute or has a drive or share prefix.",
      "Pass a path relative to 'root', such as 'docs/2025', or omit 'path' to search the whole root.",
    );
  }
  const out: string[] = [];
  for (const segment of slashed.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) throw traversal();
      out.pop();
      continue;
    }
    if (DOTS_AND_SPACES.test(segment)) throw traversal();
    out.push(segment);
  }
  return out.join("/");
}

function traversal(): ToolError {
  return new ToolError(
    "PathTraversalDetected",
    "'path' climbs above the root with '..'.",
    "Remove the '..' segments so that 'path' stays inside the root.",
  );
}

/**
 * The folders between the root and a normalized root-relative `path`, top down, neither
 * the root nor `path` itself: `a`, `a/b` for `a/b/c`.
 */
export function ancestors(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** The absolute path of a normalized root-relative `path` below `rootAbs` (`""`: the root). */
export function absoluteOf(rootAbs: string, path: string): string {
  return path === "" ? rootAbs : rootAbs + hostRules.sep + path.replaceAll("/", hostRules.sep);
}
