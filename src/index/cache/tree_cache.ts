/**
 * The live index of one root as a file-system port (contract §18): what it holds
 * (held_tree.ts) served back through the same {@linkcode FsPort} a scan reads with, so
 * that an indexed answer is a walk like any other: the same filters, collector and
 * paging, the same result. A focused scan is handed only the entries that may be in its
 * window and could still change its page (focus.ts).
 *
 * Containment (contract §6, §8, §18): a held folder is a real folder inside the root as
 * far as the index knows, so its `realPath` is its own path, served from memory like its
 * listing; nothing is read from disk through it before it is checked on disk, once per
 * scan (its real path and its time); everything else goes to the disk, so the walk's
 * realpath checks hold for whatever is read from disk, as without the index.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import { infoOf, kindOf, recordInfo, UNKNOWN_TIME } from "../store/mod.ts";
import { hostRules } from "../../security/mod.ts";
import { type Dropped, type Focus, handOut, noneDropped } from "../focus/mod.ts";
import { HeldTree } from "./held_tree.ts";
import { folderChange, type FolderStamp, stampOf } from "./folder_check.ts";

/** The stamp of a listing read where nothing is kept. */
const UNKNOWN_STAMP: FolderStamp = { time: UNKNOWN_TIME, dev: 0, ino: 0 };

/** The index of one root, as a file-system port. */
export class TreeCache extends HeldTree implements FsPort {
  #focus: Focus | null = null;
  #cut: Focus | null = null;
  #dropped: Dropped = noneDropped();
  #unsettled = false;
  /** Folders it could not list: the runtime's watch could not take them either. */
  readonly #unreadable = new Set<string>();
  #opened = false;
  /** The last folder stat'ed on disk, for its listing's time ({@linkcode TreeCache.#stampBefore}). */
  #folderStat: { path: string; stamp: FolderStamp; generation: number } | null = null;

  /**
   * Hands out only what can match `focus` from held listings (focus.ts), until focused
   * otherwise; counts what it leaves out from now on ({@linkcode TreeCache.dropped}).
   */
  focus(focus: Focus | null): void {
    this.#focus = focus;
    this.#cut = focus && { ...focus };
    this.#dropped = noneDropped();
  }

  /**
   * The window entries are handed out from: the focus's, until narrowed to what can still
   * change the page (focus.ts: `narrowToCursor`, `narrowToWorst`); `null` when unfocused.
   */
  get cut(): Focus | null {
    return this.#cut;
  }

  /** Files and listings left out since the last `focus`. */
  get dropped(): Dropped {
    return this.#dropped;
  }

  /**
   * Opens a scan: the held folders it reads from disk through are checked again, and the
   * folders the watch leaves out, and those `behind` it (lagging_folders.ts), read again.
   */
  begin(behind: Iterable<string> = []): void {
    for (const dir of this.unwatched) this.forgetListing(dir);
    for (const dir of behind) this.forgetFolder(dir);
    this.verified.clear();
    this.#unsettled = false;
  }

  /** Whether, since `begin`, a held folder was found changed before a read from disk. */
  get unsettled(): boolean {
    return this.#unsettled;
  }

  /**
   * Whether a folder it could not list before has been listed since: the runtime's watch
   * could not take it when it was made or walked, and does not take it now that it can be
   * read (contract §18, "What no event reports"), so the root's watch must be set up again.
   */
  get opened(): boolean {
    return this.#opened;
  }

  readDir(path: string): Iterable<Deno.DirEntry> {
    const folder = this.tree.node(path, this.recording);
    if (this.tree.listed(folder)) return this.#handOut(folder, path);
    const stamp = folder >= 0 ? this.#stampBefore(path) : UNKNOWN_STAMP; // a later change shows
    let entries: Deno.DirEntry[];
    try {
      entries = [...this.base.readDir(path)]; // after the walk's check of its real path
    } catch (err) {
      throw this.#unlisted(path, err);
    }
    this.#listed(path);
    if (folder >= 0) this.keep(folder, entries.map((e) => e.name), entries.map(kindOf), stamp);
    return entries;
  }

  async *readDirStream(path: string): AsyncIterable<Deno.DirEntry> {
    const folder = this.tree.node(path, this.recording);
    if (this.tree.listed(folder)) {
      yield* Array.from(this.#handOut(folder, path), (e) => ({ ...e })); // not read at once here
      return;
    }
    const generation = this.generation;
    const stamp = folder >= 0 ? this.#stampBefore(path) : UNKNOWN_STAMP;
    // Only names and kinds are held while the folder streams (not Deno's entry objects),
    // and not even those past what the cache may still take.
    let names: string[] | null = folder >= 0 ? [] : null;
    const kinds: number[] = [];
    const stream = this.base.readDirStream(path)[Symbol.asyncIterator]();
    let next: IteratorResult<Deno.DirEntry>;
    try {
      next = await stream.next();
    } catch (err) {
      throw this.#unlisted(path, err);
    }
    this.#listed(path);
    for (; !next.done; next = await stream.next()) {
      const entry = next.value;
      if (names !== null) {
        names.push(entry.name);
        kinds.push(kindOf(entry));
        if (this.entries + names.length > this.maxEntries) names = null;
      }
      yield entry;
    }
    // Events may have been applied while this listing was read: keep it only if none was.
    if (folder >= 0 && generation === this.generation) {
      if (names === null) this.overflow("entries");
      else this.keep(folder, names, kinds, stamp);
    }
  }

  /** A folder that could not be listed: noted if for want of permission; returns `err`. */
  #unlisted(path: string, err: unknown): unknown {
    if (err instanceof Deno.errors.PermissionDenied) this.#unreadable.add(path);
    return err;
  }

  /** A folder listed: if it could not be before, the watch must be set up again. */
  #listed(path: string): void {
    if (this.#unreadable.delete(path)) this.#opened = true;
  }

  lstat(path: string): Deno.FileInfo {
    const { parent, dir, name } = this.tree.parentOf(path);
    const e = this.tree.listed(parent) ? this.tree.find(parent, name) : -1;
    const cols = this.tree.columns;
    if (e >= 0 && !Number.isNaN(cols.mtime[e]!)) return infoOf(cols, e);
    this.#beforeDisk(parent, dir);
    const info = this.base.lstat(path);
    if (e >= 0 && this.recording) recordInfo(this.tree, parent, e, info);
    if (info.isDirectory && !info.isSymlink) {
      this.#folderStat = {
        path,
        stamp: stampOf(info),
        generation: this.generation,
      };
    }
    return info;
  }

  /**
   * A folder's time and device, read before its listing is: the stat the walk just read of it from disk
   * (its "is it huge?" check, or its visit) if no change came since, so that a fill stats a
   * folder once, not twice; else read now. Either way a change after it shows: the folder's
   * time (or device) on disk then differs from the one kept.
   */
  #stampBefore(path: string): FolderStamp {
    const known = this.#folderStat;
    this.#folderStat = null;
    if (known?.path === path && known.generation === this.generation) return known.stamp;
    return this.stampOf(path);
  }

  /**
   * The background check of entries (contract §18, "What no event reports": a file changed
   * through another hard link, a write through a memory map, `touch -h` on a link): the
   * held stats of folder `folder`'s entries from the `from`-th on, one lstat each on the
   * disk (not following links), until `until()` says stop; a stat that differs (kind,
   * size, modification time) or is gone is forgotten, to be read again when next needed.
   * Returns where to go on, or -1 once the folder's entries are done (or it is not held).
   */
  recheckEntries(folder: number, from: number, until: () => boolean): number {
    if (!this.tree.listed(folder)) return -1;
    const { first, count } = this.tree.run(folder);
    const dir = this.tree.pathOf(folder);
    for (let k = from; k < count; k++) {
      if (until()) return k;
      const e = first + k;
      const cols = this.tree.columns;
      if (Number.isNaN(cols.mtime[e]!)) continue; // not held: read when needed anyway
      let info: Deno.FileInfo | null = null;
      try {
        info = this.disk.lstat(dir + hostRules.sep + this.tree.nameOf(folder, e));
      } catch { /* gone: forgotten below */ }
      if (
        info && kindOf(info) === cols.kind[e] && info.size === cols.size[e] &&
        (info.mtime?.getTime() ?? NaN) === cols.mtime[e]
      ) continue;
      this.hooks.unseen?.(dir + hostRules.sep + this.tree.nameOf(folder, e));
      this.changed();
      recordInfo(this.tree, folder, e, null);
    }
    return -1;
  }

  holdsListing(path: string): boolean {
    return this.tree.listed(this.tree.node(path, false));
  }

  realPath(path: string): string {
    // A held folder: where the index learned it (checked before anything is read through it).
    if (this.holdsListing(path)) return path;
    return this.base.realPath(path);
  }

  readTextFile(path: string, maxBytes: number): string {
    const { parent, dir } = this.tree.parentOf(path);
    this.#beforeDisk(parent, dir);
    return this.base.readTextFile(path, maxBytes); // checked on disk, whatever is held
  }

  /**
   * Before something in folder `dir` (of record `parent`) is read from disk: if that
   * folder is held, it is checked on disk first ({@linkcode TreeCache.#verify}).
   *
   * @throws `Deno.errors.NotFound` when it changed (the scan is made again).
   */
  #beforeDisk(parent: number, dir: string): void {
    if (!this.tree.listed(parent) || this.#verify(parent, dir)) return;
    throw new Deno.errors.NotFound("changed under the index");
  }

  /**
   * Whether held folder `folder` (at `abs`) is still what the index learned, asked on
   * disk before anything in it is read from disk, once per scan: a real folder (its real
   * path is itself) with the time its listing was read at. If not, it is forgotten and
   * the scan is unsettled (made again).
   */
  #verify(folder: number, abs: string): boolean {
    if (this.verified.has(folder)) return true;
    let same = false;
    try {
      same = this.base.realPath(abs) === abs &&
        folderChange(this.base, abs, this.tree.stamp(folder)) === "same";
    } catch { /* gone or unreadable: not the same */ }
    if (same) this.verified.add(folder);
    else {
      this.#unsettled = true;
      this.forgetFolder(abs);
    }
    return same;
  }

  /** A held folder's entries, as focused now (hand_out.ts). */
  #handOut(folder: number, path: string): Iterable<Deno.DirEntry> {
    return handOut(this.tree, folder, path, this.#focus, this.#cut, this.#dropped);
  }
}
