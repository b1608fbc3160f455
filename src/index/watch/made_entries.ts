/**
 * What the watch worker checks of the entries an event names beyond reporting them: which
 * made entries need a look at all (anything but a plain file), and which folders were made
 * closed to this user (the runtime could not watch them) and are open now.
 *
 * @module
 */

/** The most folders kept as closed to this user (the oldest let go past it). */
const MOST_CLOSED = 10_000;

/**
 * Whether the entry at `path` may be a folder, a link or a special file (or is gone: `false`):
 * what a made entry is checked for (a link out, a folder behind the watcher, one closed to
 * this user) concerns only those. One `lstat`, so that a burst of new files (an unpack, a
 * build) costs the worker one call an event, not three that fail on a file, and its reading
 * keeps up with the kernel's queue (cookies.ts counts a long enough lag as a loss).
 */
export function notPlainFile(path: string): boolean {
  try {
    return !Deno.lstatSync(path).isFile;
  } catch {
    return false; // gone already
  }
}

/**
 * Folders an event named that this user could not list. A folder made or moved in that
 * this user cannot list is closed: the runtime could not add its watch, so nothing made in
 * it raises an event. So is a watched folder whose mode changed (an event names it) so
 * that this user cannot list it: the runtime reports nothing made in it meanwhile, not
 * even a folder made there (it cannot add that folder's watch, and drops its event), as in
 * `chmod 000 q; mkdir q/sub; chmod 755 q`. Once its mode lets it be listed (an event names
 * it again), the watch must be set up again, so that the runtime walks it and what was made
 * in it meanwhile.
 */
export class ClosedFolders {
  readonly #closed = new Set<string>();

  /** Takes an event's paths under the root; whether one of them was closed and is open now. */
  opened(kind: string, paths: readonly string[]): boolean {
    for (const path of paths) {
      if (kind === "create" || kind === "rename") {
        if (cannotList(path)) this.#add(path);
      } else if (kind === "modify") {
        // A file's modify costs one failed opendir here (ENOTDIR), a folder's a listing's start.
        const closedNow = cannotList(path);
        if (this.#closed.has(path) && !closedNow) {
          this.#closed.delete(path);
          return true;
        }
        if (closedNow) this.#add(path);
      }
    }
    return false;
  }

  #add(path: string): void {
    this.#closed.add(path);
    if (this.#closed.size > MOST_CLOSED) this.#closed.delete(this.#closed.values().next().value!);
  }
}

/** Whether the folder at `path` is one this user may not list (not: a file, or gone). */
function cannotList(path: string): boolean {
  try {
    for (const _ of Deno.readDirSync(path)) break;
    return false;
  } catch (err) {
    return err instanceof Deno.errors.PermissionDenied;
  }
}
