/**
 * Glob matching on root-relative paths (contract §9), through picomatch.
 *
 * picomatch is loaded at once in the server's own isolate, in a worker only when a call asks
 * it for a glob (`loadGlobs`), in a service's never (isolate_role.ts): an npm package starts
 * Deno's Node layer in its isolate, about 4 MB each, and every root has its own workers
 * (contract §28a).
 *
 * @module
 */
// @ts-types="@types/picomatch"
import type picomatchOf from "picomatch";
import { matchersAtImport } from "../isolate_role.ts";

/** picomatch, once loaded. */
let picomatch: typeof picomatchOf | null = null;

/** Loads picomatch into this isolate (once): before `compileGlob`, in a worker. */
export async function loadGlobs(): Promise<void> {
  picomatch ??= (await import("picomatch")).default as typeof picomatchOf;
}

/** Whether `compileGlob` may be called in this isolate now. */
export function globsLoaded(): boolean {
  return picomatch !== null;
}

if (matchersAtImport.now) await loadGlobs(); // the server's own isolate (isolate_role.ts)

/** Tests one root-relative, `/`-separated path. */
export type PathMatcher = (path: string) => boolean;

/** A glob that cannot be compiled; its message says why, in words a model can act on. */
export class GlobSyntaxError extends Error {
  /** What to change. */
  readonly fix: string;

  constructor(message: string, fix: string) {
    super(message);
    this.name = "GlobSyntaxError";
    this.fix = fix;
  }
}

/**
 * Whether `glob` matches case exactly (contract §9): as `caseSensitive` says, or, when it is
 * `null`, smart case as fd: exactly when the glob has an upper-case letter.
 *
 * @example
 * ```ts
 * isCaseSensitive("**\/*.jpg", null); // false: finds IMG_0001.JPG
 * isCaseSensitive("**\/Budget*", null); // true
 * isCaseSensitive("**\/*.jpg", true); // true
 * ```
 */
export function isCaseSensitive(glob: string, caseSensitive: boolean | null): boolean {
  return caseSensitive ?? /\p{Lu}/u.test(glob);
}

/**
 * Compiles a glob: anchored at both ends, `*` and `?` never cross `/`, `**` is zero
 * or more whole segments (a trailing `/**` too: `docs/**` matches `docs` itself), `*`
 * also matches names that start with `.`, and matching is case-sensitive on every OS
 * unless `caseSensitive` is false (`\` escapes, it is never a separator).
 *
 * @throws {GlobSyntaxError} for an unclosed `[` or `{`, or a pattern picomatch
 * cannot compile.
 *
 * @example
 * ```ts
 * const isMd = compileGlob("**\/*.md");
 * isMd("a.md"); // true
 * isMd("x/y/a.md"); // true
 * isMd("a.txt"); // false
 * compileGlob("*\/**")("docs"); // true
 * ```
 */
export function compileGlob(glob: string, caseSensitive = true): PathMatcher {
  if (picomatch === null) {
    throw new Error("compileGlob before loadGlobs (in a worker, or a service)");
  }
  const unclosed = unclosedBracket(glob);
  if (unclosed !== null) {
    const close = unclosed === "[" ? "]" : "}";
    throw new GlobSyntaxError(
      `'glob' has a '${unclosed}' that is never closed, so it would match nothing.`,
      `Close it with '${close}' (e.g. '*.{md,txt}', '[abc]*'), or write '\\${unclosed}' to match a literal '${unclosed}'.`,
    );
  }
  let match: PathMatcher;
  try {
    match = compile(glob, caseSensitive);
  } catch {
    throw new GlobSyntaxError(
      "'glob' is not a pattern the matcher can compile.",
      "Use a glob such as '**/*.md', '*.txt' or 'docs/**'.",
    );
  }
  // picomatch lets `X/**` match `X` only when X is literal (`docs/**`), not for `*/**`.
  if (glob.endsWith("/**") && glob.length > 3) {
    const parent = compile(glob.slice(0, -3), caseSensitive);
    return (path) => match(path) || parent(path);
  }
  return match;
}

function compile(glob: string, caseSensitive: boolean): PathMatcher {
  // posix: true also makes `[!a]` a negation (picomatch 4.0.7 reads it as "! or a"
  // without it, micromatch/picomatch#187) and enables `[[:alpha:]]` classes.
  return picomatch!(glob, { dot: true, nocase: !caseSensitive, windows: false, posix: true });
}

/** The first `[` or `{` that is never closed (escapes with `\` respected), or null. */
function unclosedBracket(glob: string): "[" | "{" | null {
  let inClass = false;
  let classStart = -1;
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      // `]` right after `[` or `[!`/`[^` is a member, not the end (POSIX).
      if (
        c === "]" && i > classStart + 1 &&
        !(i === classStart + 2 && "!^".includes(glob[classStart + 1]!))
      ) {
        inClass = false;
      }
    } else if (c === "[") {
      inClass = true;
      classStart = i;
    } else if (c === "{") {
      braces++;
    } else if (c === "}" && braces > 0) {
      braces--;
    }
  }
  return inClass ? "[" : braces > 0 ? "{" : null;
}
