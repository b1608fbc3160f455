/**
 * Where the index services of one user listen (contract §28): one folder per user in the
 * temp folder, `file-time-search-<uid>`, mode 0700, whose owner and mode are checked before
 * each use (Watchman's state folder is checked the same way); a folder that fails the check
 * is never used. In it, one socket per root, build (build.ts) and index settings, named by
 * the build and a hash (a root's path never appears in a name), and the lock its service
 * holds while it lives.
 *
 * @module
 */

/** The socket folder of the user who owns `mine` (a folder this process made). */
export function socketFolderOf(mine: string): { folder: string; uid: number } | string {
  let uid: number | null;
  try {
    uid = Deno.lstatSync(mine).uid;
  } catch {
    return "the server's private folder could not be read";
  }
  if (uid === null) return "the server's user could not be told";
  const tmp = mine.slice(0, mine.lastIndexOf("/"));
  return { folder: `${tmp}/file-time-search-${uid}`, uid };
}

/**
 * Checks the socket folder: a real folder (not a link), owned by `uid`, mode 0700. Made so
 * if it is not there. Returns why it cannot be used, or `null`.
 */
export function checkSocketFolder(folder: string, uid: number): string | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(folder);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) return "the socket folder could not be read";
    try {
      Deno.mkdirSync(folder, { mode: 0o700 });
      Deno.chmodSync(folder, 0o700); // the umask may have taken bits off, never added any
    } catch (made) {
      if (!(made instanceof Deno.errors.AlreadyExists)) {
        return "the socket folder could not be made";
      }
    }
    return checkSocketFolder(folder, uid);
  }
  if (!info.isDirectory) return "the socket folder is not a folder";
  if (info.uid !== uid) return "the socket folder belongs to another user";
  const mode = (info.mode ?? 0) & 0o777;
  if (mode !== 0o700) {
    return `the socket folder's mode is ${mode.toString(8).padStart(4, "0")}, not 0700`;
  }
  return null;
}

/** A service's socket and lock in `folder`. */
export function servicePaths(folder: string, name: string): { socket: string; lock: string } {
  return { socket: `${folder}/${name}.sock`, lock: `${folder}/${name}.lock` };
}
