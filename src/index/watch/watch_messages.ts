/**
 * The messages between the server and a root's watch worker (contract §18), what a change
 * says, and the words and identities the watch worker reports with.
 *
 * @module
 */
/** What a change event says (a subset of `Deno.FsEvent`). */
export interface Change {
  kind: string;
  paths: string[];
}

/** Server to watch worker. */
export type WatchCommand =
  /**
   * Watch the root's real path `path` and the root's private folder `cookies` (a real
   * path) with one `Deno.watchFs` call; `queueLimit`: the kernel queue's length.
   */
  | { type: "watch"; path: string; cookies: string; queueLimit: number }
  /**
   * Write a cookie and answer `passed` once its event is back, after every change read
   * before it has been sent (contract §18: the barrier).
   */
  | { type: "barrier"; id: number }
  /**
   * Hold each folder moved unseen where it is now (real paths): the runtime's watch of each
   * may be lost (held_watches.ts), and the old paths below it still name its subfolders
   * (dropped_watches.ts); said `held` with the changes once in place.
   */
  | { type: "hold"; moves: UnseenMove[] };

/**
 * A folder moved with only its old name given (journal/batch.ts `pairByInode`): its old path
 * and where it is now, both real.
 */
export interface UnseenMove {
  from: string;
  to: string;
}

/**
 * Folders made or moved in that the runtime's watcher may not reach yet (`behind`: their
 * wave), and the wave it has now caught up with (`caughtUp`: that one and every earlier
 * one), in the order of the changes they come with (watch_lag.ts); `held`: folders whose
 * runtime watch may have been lost, held again now (held_watches.ts), to be read once more.
 */
export interface LagNews {
  behind?: { wave: number; folders: string[] };
  caughtUp?: number;
  held?: string[];
}

/** Why folders are left unwatched: the links out and the FIFOs or device files found. */
export interface ReadFromDisk {
  linksOut: number;
  specialFiles: number;
}

/** Watch worker to server. */
export type WatchReport =
  /**
   * The watch is in place: changes from now on are reported, except in the `unwatched`
   * folders (their listings and their entries' stats are read from disk by every scan:
   * watch_plan.ts; `why`: the links out and FIFOs or device files that made them so);
   * `root`: what the watch rests on ({@linkcode planIdentity}).
   */
  | {
    type: "ready";
    root: string | null;
    unwatched?: string[];
    why?: ReadFromDisk;
  }
  /**
   * The watch could not be set up (e.g. the system's watch limit); `reason` has no path;
   * `retry`: it may work later.
   */
  | { type: "failed"; reason: string; retry?: boolean }
  | ({ type: "changes"; changes: Change[]; rescan: boolean } & LagNews)
  /**
   * The watcher broke after it was ready: changes may have been lost; `soon`: it may be set
   * up again at once (its private folder was removed from outside: made again).
   */
  | { type: "error"; reason: string; soon?: boolean }
  /**
   * Barrier `id` passed: every change before it has been sent; `root`: what the watch
   * rests on then (watch_plan.ts `planIdentity`), to tell it is still in place.
   */
  | { type: "passed"; id: number; root: string | null }
  /** The root folder is no longer the one watched (moved, removed or replaced). */
  | { type: "moved" }
  /**
   * A link to a folder outside the root appeared where the watch would follow it, or
   * (`special`) a FIFO or device file where it would open it, or (`opened`) a folder the
   * runtime could not watch (this user could not list it) can be listed now, or (`held`)
   * more folders than a watch holds lost their runtime watch (held_watches.ts).
   */
  | { type: "replan"; special?: boolean; opened?: boolean; held?: boolean };

/**
 * A real folder's identity (device and inode, from one lstat not following links), or
 * `null` when `path` is not a real folder now: the watch stays on the folder it started
 * on, so a root moved away and made again must be told apart by this, not by its path.
 */
export function folderIdentity(path: string): string | null {
  try {
    const info = Deno.lstatSync(path);
    return info.isDirectory && !info.isSymlink ? `${info.dev}:${info.ino}` : null;
  } catch {
    return null;
  }
}

/**
 * Why a write in the server's private folder failed, in words without a path: `ENOSPC` there
 * is a full temp folder, not the watch limit (raising that would fix nothing).
 */
export function writeFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/ENOSPC|No space left/i.test(message)) {
    return "the temp folder is full (no space left on its device)";
  }
  return watchFailure(err);
}

/** Why a watch failed, in words without paths. */
export function watchFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/watch limit|ENOSPC|No space left/i.test(message)) {
    return "the system's limit on file watches is reached (on Linux, raise fs.inotify.max_user_watches)";
  }
  if (/too many open files|EMFILE/i.test(message)) return "too many open files";
  return err instanceof Error ? `${err.name}` : "unknown error";
}
