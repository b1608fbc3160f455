/**
 * Glob matching on root-relative paths (DECISIONS §9), through picomatch.
 *
 * @module
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";

/** Tests one root-relative, `/`-separated path. */
export type PathMatcher = (path: string) => boolean;

/**
 * Compiles a glob: anchored at both ends, `*` and `?` never cross `/`, `**` is zero
 * or more whole segments, `*` also matches names that start with `.`, and matching
 * is case-sensitive on every OS (`\` escapes, it is never a separator).
 *
 * @throws {Error} when picomatch cannot compile the pattern.
 *
 * @example
 * ```ts
 * const isMd = compileGlob("**\/*.md");
 * isMd("a.md"); // true
 * isMd("x/y/a.md"); // true
 * isMd("a.txt"); // false
 * ```
 */
export function compileGlob(glob: string): PathMatcher {
  // posix: true also makes `[!a]` a negation (picomatch 4.0.7 reads it as "! or a"
  // without it, micromatch/picomatch#187) and enables `[[:alpha:]]` classes.
  return picomatch(glob, { dot: true, nocase: false, windows: false, posix: true });
}
