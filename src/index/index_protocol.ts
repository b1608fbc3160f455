/**
 * The messages of the live index (contract §18): between the server and a root's index
 * worker (besides scan tasks), and between the server and the root's watch worker.
 *
 * @module
 */
import type { Change } from "./held_tree.ts";

export type { Change };

/** An index worker's report on its index, sent with each answer (contract §18). */
export interface IndexReport {
  /** Entries the index holds (when it overflowed: held then). */
  entries: number;
  /** The index's memory budget in bytes (from the worker's heap). */
  budgetBytes: number;
  /** The index passed `INDEX_MAX_ENTRIES` or its memory budget and was dropped. */
  overflowed: "entries" | "memory" | null;
  /** It met a FIFO or device file, which the runtime's watcher would open (contract §18). */
  special: boolean;
  /**
   * When the last whole round of the background check began (epoch ms): every held folder
   * and entry was checked on disk at or after it; `null` until a round has ended.
   */
  checkedWhole: number | null;
  /**
   * A folder it could not list before was listed: the runtime's watch did not take it then
   * and does not now, so the root's watch is set up again.
   */
  opened: boolean;
}

/** Server to index worker. */
export type IndexControl =
  /**
   * Keep what scans read from now on (the watcher runs), up to `maxEntries`; the
   * `unwatched` folders are read from disk by every scan (watch_plan.ts).
   */
  | { type: "record"; maxEntries: number; unwatched: readonly string[] }
  /**
   * Take what a fill helper writes into `ring` while the fill runs (fed_fs.ts); `null`:
   * the fill is over.
   */
  | { type: "feed"; ring: SharedArrayBuffer | null }
  /** Forget what these changes name; `rescan`: forget everything. */
  | { type: "changes"; changes: Change[]; rescan: boolean };

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
  | { type: "barrier"; id: number };

/** Watch worker to server. */
export type WatchReport =
  /**
   * The watch is in place: changes from now on are reported, except in the `unwatched`
   * folders (their listings and their entries' stats are read from disk by every scan:
   * watch_plan.ts); `root`: what the watch rests on ({@linkcode planIdentity}).
   */
  | { type: "ready"; root: string | null; unwatched?: string[] }
  /**
   * The watch could not be set up (e.g. the system's watch limit); `reason` has no path;
   * `retry`: it may work later.
   */
  | { type: "failed"; reason: string; retry?: boolean }
  | { type: "changes"; changes: Change[]; rescan: boolean }
  /** The watcher broke after it was ready: changes may have been lost. */
  | { type: "error"; reason: string }
  /**
   * Barrier `id` passed: every change before it has been sent; `root`: what the watch
   * rests on then (watch_plan.ts `planIdentity`), to tell it is still in place.
   */
  | { type: "passed"; id: number; root: string | null }
  /** The root folder is no longer the one watched (moved, removed or replaced). */
  | { type: "moved" }
  /** A link to a folder outside the root appeared where the watch would follow it. */
  | { type: "replan" };

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

/** Why a watch failed, in words without paths. */
export function watchFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/watch limit|ENOSPC|No space left/i.test(message)) {
    return "the system's limit on file watches is reached (on Linux, raise fs.inotify.max_user_watches)";
  }
  if (/too many open files|EMFILE/i.test(message)) return "too many open files";
  return err instanceof Error ? `${err.name}` : "unknown error";
}
