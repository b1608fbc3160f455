/**
 * Folders whose runtime watch may be lost, watched again (contract §18; docs/index.md, "A
 * folder the runtime stops watching"). Deno 2.9's watcher (`notify` 8.2.0, inotify) names
 * each kernel watch by the paths it walked to it. A folder moved into a folder that was not
 * watched yet, found there by the walk that watches its new place before the event of its
 * move is read, is named by its old path and its new one; the event then removes the old
 * path and, with it, the folder's one watch: nothing in it raises an event any more, and
 * nothing says so. The index finds such a folder by its inode (the move's one end came:
 * journal/batch.ts `pairByInode`) and asks for the folder it was found in to be held: a
 * recursive `Deno.watchFs` call on it has the runtime walk it and add what is missing.
 *
 * The runtime walks a path only for the first open call on it, and closing the last call on
 * a path removes the watch of every folder below it, those the root's call relies on too. So
 * every held path stays in one open call, made again with each new path (the old call closed
 * after: each old path still counted open, nothing is removed); a path held already is let go
 * (its watches removed), then held anew, which walks it. The call ignores the root (its events
 * are the root's call's to report), so the runtime compares each event with it once (about
 * 11 µs: watch_plan.ts `watchParts`), however many folders it holds. Past
 * {@linkcode MOST_HELD} folders, the root's watch is set up again.
 *
 * @module
 */
import { folderAbove } from "../../security/mod.ts";
import { folderIdentity } from "./watch_messages.ts";

/**
 * Whether the runtime's watcher drops watches this way here: inotify's (Linux). Elsewhere
 * nothing is held (FSEvents has no watch per folder, and would restart its stream for each).
 */
export const RUNTIME_DROPS_WATCHES = Deno.build.os === "linux";

/** The most folders held in one watch. */
export const MOST_HELD = 256;
/** The most folders held at once: past it, the nearest folder above them all is held. */
export const MOST_AT_ONCE = 16;

/** How many times a hold is tried while folders vanish under its walk. */
const HOLD_TRIES = 5;

/** What holding a folder came to. */
export type Held = "held" | "gone" | "again";

/** Opens a recursive call on `paths` that ignores every event under `root`. */
export type OpenHold = (paths: string[], root: string) => Deno.FsWatcher;

const openHold: OpenHold = (paths, root) =>
  Deno.watchFs(paths, { recursive: true, ignore: [root] });

/** The held folders of one root's watch. */
export class HeldWatches {
  readonly #root: string;
  readonly #sep: string;
  readonly #open: OpenHold;
  /** The paths held, each in one of `#calls` (all in the last one, unless a path went). */
  readonly #paths: string[] = [];
  #calls: Deno.FsWatcher[] = [];

  /**
   * `root`: the root's real path; `sep`: the path separator; `open`: the call that holds
   * paths. @default a `Deno.watchFs`
   */
  constructor(root: string, sep: string, open: OpenHold = openHold) {
    this.#root = root;
    this.#sep = sep;
    this.#open = open;
  }

  /**
   * Holds what `folders` (real paths) need, part by part (`parts`: the folders the root's
   * watch watches whole): the fewest folders that walk those still there
   * ({@linkcode fewestToHold}), each first asked `leadsOut` (true: the watch is planned again,
   * nothing more held: `out`). Returns the folders held, or `again` (the root's watch must
   * be set up again). Throws what {@linkcode HeldWatches.hold} throws.
   */
  holdAll(
    folders: readonly string[],
    parts: readonly string[],
    leadsOut: (folder: string) => boolean,
  ): string[] | "again" | "out" {
    const done: string[] = [];
    if (!RUNTIME_DROPS_WATCHES) return done;
    for (const part of parts) {
      const there = folders.filter((f) =>
        f.startsWith(part + this.#sep) && folderIdentity(f) !== null
      );
      for (const folder of fewestToHold(there, part, this.#sep)) {
        if (leadsOut(folder)) return "out";
        const held = this.hold(folder, part);
        if (held === "again") return "again";
        if (held === "held") done.push(folder);
      }
    }
    return done;
  }

  /**
   * Holds the folder at real path `folder`, below `part` (the folder the root's watch watches
   * whole that it lies in): `held` (its watch is in place once this returns), `gone` (no
   * folder there now: moved on, its new place told by its own events), or `again` (the
   * root's watch must be set up again). A path held already is let go first (the runtime
   * then removes the watches below it: walked again at once). Throws what the runtime's watch
   * throws otherwise (the system's limit on watches).
   */
  hold(folder: string, part: string): Held {
    if (folder.length <= part.length || this.#paths.length >= MOST_HELD) return "again";
    // A folder that vanishes under the runtime's walk stops it (`NotFound`): tried again while
    // the folder is there.
    for (let tries = 0; tries < HOLD_TRIES; tries++) {
      if (folderIdentity(folder) === null) return "gone";
      // Those held before that are gone are let go (nothing below them to watch).
      const keep = this.#paths.filter((p) => p !== folder && folderIdentity(p) !== null);
      try {
        if (this.#paths.includes(folder)) this.#hand(keep.length > 0 ? [keep] : []);
        this.#paths.splice(0, this.#paths.length, ...keep);
        this.#hand([[...keep, folder]]);
      } catch (err) {
        if (gone(err)) continue;
        throw err;
      }
      this.#paths.push(folder);
      return "held";
    }
    return "again";
  }

  /**
   * Holds each list of `calls` in a new call, then closes the old ones (each path held before
   * and still in a new call stays counted open; any other is unwatched by the runtime before
   * `close` returns, as no poll waits on a held call).
   */
  #hand(calls: string[][]): void {
    const made: Deno.FsWatcher[] = [];
    try {
      for (const paths of calls) made.push(this.#open(paths, this.#root));
    } catch (err) {
      for (const call of made) call.close();
      throw err;
    }
    for (const old of this.#calls) old.close();
    this.#calls = made;
  }

  /** How many folders are held. */
  get size(): number {
    return this.#paths.length;
  }

  /** Closes every held call (the root's watch is over). */
  close(): void {
    for (const call of this.#calls) call.close();
    this.#calls = [];
    this.#paths.length = 0;
  }
}

/**
 * The fewest folders to hold so that each of `folders` (real paths, below `part`) is walked:
 * each once, none below another; past `most`, the nearest folder above them all (`part`
 * itself when that is the nearest, which no hold can walk: the watch is set up again).
 */
export function fewestToHold(
  folders: readonly string[],
  part: string,
  sep: string,
  most = MOST_AT_ONCE,
): string[] {
  const each = [...new Set(folders)];
  const top = each.filter((f) => !each.some((o) => o !== f && f.startsWith(o + sep)));
  if (top.length <= most) return top;
  let common = folderAbove(top[0]!);
  while (common.length > part.length && !top.every((f) => f.startsWith(common + sep))) {
    common = folderAbove(common);
  }
  return [common.length > part.length ? common : part];
}

/** Whether the runtime's watch failed for a path no longer there (or no longer a folder). */
function gone(err: unknown): boolean {
  return err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory;
}
