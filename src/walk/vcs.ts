/**
 * Version-control folders (contract §27): what lies inside a folder named `.git`, `.hg`,
 * `.svn` or `.jj` is left out of both tools' answers unless `includeVcs` asks for it, as
 * Watchman's `ignore_vcs` does and as fd and ripgrep hide them; the folder itself is an
 * entry like any other. A call whose `path` lies at or inside such a folder asked for it:
 * what lies below its start is listed (as fd lists what is inside the folder it is given).
 *
 * @module
 */

/** The names of version-control folders. */
export const VCS_FOLDERS: readonly string[] = [".git", ".hg", ".svn", ".jj"];

/**
 * Whether the entry at root-relative `path` lies inside a version-control folder below
 * the start path `start` ("" the root).
 *
 * @example
 * ```ts
 * insideVcs(".git/HEAD", ""); // true
 * insideVcs(".git", ""); // false: the folder itself is listed
 * insideVcs(".git/refs/heads/main", ".git"); // false: the call asked for .git
 * ```
 */
export function insideVcs(path: string, start: string): boolean {
  let from = start === "" ? 0 : path.startsWith(start + "/") ? start.length + 1 : path.length;
  for (let cut = path.indexOf("/", from); cut >= 0; cut = path.indexOf("/", from)) {
    const name = path.slice(from, cut);
    if (name.startsWith(".") && VCS_FOLDERS.includes(name)) return true;
    from = cut + 1;
  }
  return false;
}
