/**
 * The POSIX path functions the sandbox uses (`sep`, `isAbsolute`, `resolve`, `relative`, `join`,
 * `parse(p).root`), as Node's `path.posix` computes them (a port of its `lib/path.js`; the
 * property test in tests/security/posix_rules_test.ts holds them to `node:path` itself).
 *
 * Written here, not imported, because `node:path` in a worker starts Deno's Node layer in that
 * isolate, about 2.4 MB each (contract §28a: a root of a few files adds at most 10 MB, and
 * every root has its own index and watch workers). Windows keeps `node:path`'s own rules.
 *
 * @module
 */

/** The path functions of one platform that the sandbox uses (`path.posix`, `path.win32`). */
export interface PathRules {
  readonly sep: string;
  isAbsolute(p: string): boolean;
  resolve(...paths: string[]): string;
  relative(from: string, to: string): string;
  join(...paths: string[]): string;
  parse(p: string): { root: string };
}

const SLASH = 47; // "/"
const DOT = 46; // "."

/** `path` with `.` and `..` segments and repeated slashes resolved (Node's `normalizeString`). */
function normalizeString(path: string, allowAboveRoot: boolean): string {
  let res = "";
  let lastSegmentLength = 0;
  let lastSlash = -1;
  let dots = 0;
  let code = 0;
  for (let i = 0; i <= path.length; ++i) {
    if (i < path.length) code = path.charCodeAt(i);
    else if (code === SLASH) break;
    else code = SLASH;
    if (code === SLASH) {
      if (lastSlash === i - 1 || dots === 1) {
        // a repeated slash, or a `.` segment: nothing
      } else if (dots === 2) {
        if (
          res.length < 2 || lastSegmentLength !== 2 ||
          res.charCodeAt(res.length - 1) !== DOT || res.charCodeAt(res.length - 2) !== DOT
        ) {
          if (res.length > 2) {
            const lastSlashIndex = res.lastIndexOf("/");
            if (lastSlashIndex === -1) {
              res = "";
              lastSegmentLength = 0;
            } else {
              res = res.slice(0, lastSlashIndex);
              lastSegmentLength = res.length - 1 - res.lastIndexOf("/");
            }
            lastSlash = i;
            dots = 0;
            continue;
          } else if (res.length !== 0) {
            res = "";
            lastSegmentLength = 0;
            lastSlash = i;
            dots = 0;
            continue;
          }
        }
        if (allowAboveRoot) {
          res += res.length > 0 ? "/.." : "..";
          lastSegmentLength = 2;
        }
      } else {
        if (res.length > 0) res += "/" + path.slice(lastSlash + 1, i);
        else res = path.slice(lastSlash + 1, i);
        lastSegmentLength = i - lastSlash - 1;
      }
      lastSlash = i;
      dots = 0;
    } else if (code === DOT && dots !== -1) {
      ++dots;
    } else {
      dots = -1;
    }
  }
  return res;
}

function isAbsolute(p: string): boolean {
  return p.length > 0 && p.charCodeAt(0) === SLASH;
}

function resolve(...paths: string[]): string {
  let resolved = "";
  let absolute = false;
  for (let i = paths.length - 1; i >= -1 && !absolute; i--) {
    const path = i >= 0 ? paths[i]! : Deno.cwd();
    if (path.length === 0) continue;
    resolved = `${path}/${resolved}`;
    absolute = path.charCodeAt(0) === SLASH;
  }
  resolved = normalizeString(resolved, !absolute);
  if (absolute) return `/${resolved}`;
  return resolved.length > 0 ? resolved : ".";
}

function normalize(path: string): string {
  if (path.length === 0) return ".";
  const absolute = path.charCodeAt(0) === SLASH;
  const trailingSeparator = path.charCodeAt(path.length - 1) === SLASH;
  let normalized = normalizeString(path, !absolute);
  if (normalized.length === 0) {
    if (absolute) return "/";
    return trailingSeparator ? "./" : ".";
  }
  if (trailingSeparator) normalized += "/";
  return absolute ? `/${normalized}` : normalized;
}

function join(...paths: string[]): string {
  const parts = paths.filter((p) => p.length > 0);
  return parts.length === 0 ? "." : normalize(parts.join("/"));
}

function relative(from: string, to: string): string {
  if (from === to) return "";
  from = resolve(from);
  to = resolve(to);
  if (from === to) return "";
  const fromStart = 1;
  const fromEnd = from.length;
  const fromLen = fromEnd - fromStart;
  const toStart = 1;
  const toLen = to.length - toStart;
  const length = fromLen < toLen ? fromLen : toLen;
  let lastCommonSep = -1;
  let i = 0;
  for (; i < length; i++) {
    const fromCode = from.charCodeAt(fromStart + i);
    if (fromCode !== to.charCodeAt(toStart + i)) break;
    else if (fromCode === SLASH) lastCommonSep = i;
  }
  if (i === length) {
    if (toLen > length) {
      // `from` is the whole prefix of `to`: from "/foo/bar" to "/foo/bar/baz", or from "/"
      if (to.charCodeAt(toStart + i) === SLASH) return to.slice(toStart + i + 1);
      if (i === 0) return to.slice(toStart + i);
    } else if (fromLen > length) {
      // `to` is the whole prefix of `from`: from "/foo/bar/baz" to "/foo/bar", or to "/"
      if (from.charCodeAt(fromStart + i) === SLASH) lastCommonSep = i;
      else if (i === 0) lastCommonSep = 0;
    }
  }
  let out = "";
  // A `..` for each segment of `from` after the common part.
  for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
    if (i === fromEnd || from.charCodeAt(i) === SLASH) out += out.length === 0 ? ".." : "/..";
  }
  // Then the rest of `to` after the common part.
  return `${out}${to.slice(toStart + lastCommonSep)}`;
}

function parse(p: string): { root: string } {
  return { root: isAbsolute(p) ? "/" : "" };
}

/** POSIX paths, as `node:path`'s `posix` computes them. */
export const posixRules: PathRules = Object.freeze({
  sep: "/",
  isAbsolute,
  resolve,
  relative,
  join,
  parse,
});
