/**
 * What the live index of one root holds (contract §18) and how it is kept: what the walk
 * learned of the tree (each folder's listing and every entry's lstat), kept compact (one
 * string of names per folder, everything else in typed arrays outside the heap:
 * folder_tree.ts, entry_columns.ts); kept true by change events, which make it forget
 * what they name (a changed entry's lstat; a folder's listing when an entry was added,
 * removed or renamed in it, and that folder's own lstat; a removed folder with everything
 * below it), and by the background check of folder times for what events cannot say
 * ({@linkcode HeldTree.recheck}); and kept within a memory budget: past `maxEntries`
 * entries or `maxBytes` of estimated heap, or when the heap is nearly full, it drops
 * everything, stops recording and says why ({@linkcode HeldTree.overflowed}).
 *
 * It records only while it is trusted (the watcher runs). tree_cache.ts serves it to scans.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import { hostRules } from "../../security/mod.ts";
import { folderChange, folderOnDisk, type FolderStamp } from "./folder_check.ts";
import { HeldView } from "./held_view.ts";
import { timeOrderBytes } from "../focus/mod.ts";
import type { HeldTreeHooks, HeldTreeOptions, Overflow } from "./held_tree_options.ts";
import { realFolder } from "./real_folder.ts";
import { FolderTree, namesBytes, recordInfo, UNKNOWN_TIME } from "../store/mod.ts";
import { type Change, isSpecial } from "../watch/mod.ts";

const HEAP_LOOK_BYTES = 2 ** 20; // kept bytes between two looks at the heap, at most
/** What one root's index holds. */
export class HeldTree {
  protected readonly base: FsPort;
  /** The disk itself, never a fill's feed. */
  protected readonly disk: FsPort;
  /** The root's real path. */
  readonly root: string;
  protected readonly tree: FolderTree;
  protected readonly maxEntries: number;
  /** Folders the watch leaves out, read from disk by every scan ({@linkcode forgetListing}). */
  protected readonly unwatched: readonly string[];
  readonly #maxBytes: number;
  readonly #heapNearlyFull: () => boolean;
  readonly #heapLook: number; // kept bytes between two looks at the heap
  #nextHeapLook: number;
  protected recording = false;
  #overflowed: Overflow | null = null;
  #overflowedAt = 0;
  #special = false;
  #mounted = false;
  #view: HeldView | undefined;
  /** Bumped by every change, so a listing read across an await is not kept stale. */
  protected generation = 0;
  /** Held folders checked on disk during this scan (or read from it). */
  protected readonly verified = new Set<number>();
  /** What it tells the journal, before it acts (held_tree_options.ts). */
  hooks: HeldTreeHooks = {};

  constructor(options: HeldTreeOptions) {
    this.base = options.base;
    this.disk = options.disk ?? options.base;
    this.root = options.rootReal;
    this.maxEntries = options.maxEntries;
    this.unwatched = options.unwatched ?? [];
    this.#maxBytes = options.maxBytes ?? Infinity;
    // A 32nd of the budget on a small heap: what a fill holds in passing weighs more there.
    this.#nextHeapLook = this.#heapLook = Math.min(HEAP_LOOK_BYTES, this.#maxBytes / 32);
    this.#heapNearlyFull = options.heapNearlyFull ?? (() => false);
    this.tree = new FolderTree(options.rootReal);
  }

  /** A look at what is held, reading nothing (the journal's images before a change). */
  get view(): HeldView {
    return this.#view ??= new HeldView(this.tree, this.root);
  }

  /** Entries held. */
  get entries(): number {
    return this.tree.entries;
  }

  /** Heap bytes held, estimated from above (what the budget counts). */
  get bytes(): number {
    return this.tree.bytes;
  }

  /** Folders held (the root among them). */
  get folders(): number {
    return this.tree.folders.live;
  }

  /** Bytes held outside the heap (the entries' columns, the time order once made). */
  get offHeapBytes(): number {
    return this.tree.offHeapBytes + timeOrderBytes(this.tree);
  }

  /** Why the cache stopped recording for good (it then holds nothing); `null` while it may. */
  get overflowed(): Overflow | null {
    return this.#overflowed;
  }

  /** How many entries it held when it overflowed. */
  get overflowedAt(): number {
    return this.#overflowedAt;
  }

  /** Starts (or stops) keeping what is read. Stopping forgets everything. */
  record(on: boolean): void {
    if (!on) this.clear();
    this.recording = on && this.#overflowed === null;
  }

  /** Forgets everything. */
  clear(): void {
    this.tree.clear();
    this.#nextHeapLook = this.#heapLook;
    this.changed();
  }

  /** Forgets what the change events name (contract §18). */
  apply(changes: readonly Change[]): void {
    this.changed();
    for (const change of changes) {
      for (const abs of change.paths) this.forget(abs, change.kind);
    }
  }

  /** A held listing's folder's time, device and inode when read; `undefined` if none is held. */
  folderStamp(path: string): FolderStamp | undefined {
    const folder = this.tree.node(path, false);
    return this.tree.listed(folder) ? this.tree.stamp(folder) : undefined;
  }

  /**
   * Forgets a folder's listing, everything below it, and its own stat (its time moved, or
   * it is no longer a folder): all read again when next needed.
   */
  forgetFolder(path: string): void {
    this.changed();
    if (path === this.root) return this.clear();
    const { parent, name } = this.tree.parentOf(path);
    this.hooks.forgetting?.(path, true);
    this.tree.drop(parent, name);
    this.#unstat(path);
  }

  /**
   * Forgets a folder found on another device or inode (a mount over it: no event says so)
   * with all below it; the watch does not reach in, so it is set up again ({@linkcode mounted}).
   */
  forgetMounted(path: string): void {
    this.#mounted = true;
    this.forgetFolder(path);
  }

  /** Whether a held folder was found on another device (the watch is set up again). */
  get mounted(): boolean {
    return this.#mounted;
  }

  /**
   * Forgets a folder's listing and its entries' stats, but not what is below its subfolders:
   * an unwatched folder's (watch_plan.ts), read from disk again by every scan.
   */
  forgetListing(path: string): void {
    const folder = this.tree.node(path, false);
    if (!this.tree.kept(folder)) return;
    this.changed();
    this.#unlistAll(folder);
    this.#unstat(path);
  }

  /**
   * Forgets a folder's listing and its entries' stats: none carried to the listing read
   * again, each `lstat`ed afresh (its mode may have changed what the server's user may stat).
   * A listing already forgotten still has its entries' stats kept, to be carried to the one
   * read again (folder_tree.ts): those go too.
   */
  #unlistAll(folder: number): void {
    if (!this.tree.kept(folder)) return;
    const { first, count } = this.tree.run(folder);
    for (let e = first; e < first + count; e++) recordInfo(this.tree, folder, e, null);
    this.tree.unlist(folder);
  }

  /** Record numbers of folders, `0 .. records - 1`, some not held: what `recheck` takes. */
  get records(): number {
    return this.tree.records;
  }

  /**
   * The background check of folder times (contract §18), for what events cannot say (the
   * runtime drops events on a path that now leads out of the root: a new link out, a
   * folder swapped for one): if record `folder`'s listing is held, its folder must still
   * be a real folder with the time the listing was read at (one lstat, not following
   * links); else it is forgotten as an event would have it. Returns whether it looked.
   */
  recheck(folder: number): boolean {
    if (!this.tree.listed(folder)) return false;
    const abs = this.tree.pathOf(folder);
    const change = folderChange(this.base, abs, this.tree.stamp(folder));
    if (change === "same") return true;
    this.hooks.unseen?.(abs);
    this.changed();
    if (change === "gone") this.forget(abs, "remove"); // gone, or no longer a real folder
    else if (change === "device") this.forgetMounted(abs); // nothing below it holds
    else this.#relist(folder, abs);
    return true;
  }

  protected changed(): void {
    this.generation++;
    this.verified.clear();
  }

  /** A real folder's time, device and inode on disk (unknown if it is not one, or unreadable). */
  protected stampOf(path: string): FolderStamp {
    return folderOnDisk(this.base, path) ?? { time: UNKNOWN_TIME, dev: 0, ino: 0 };
  }

  protected keep(folder: number, names: string[], kinds: number[], stamp: FolderStamp): void {
    const bytes = this.bytes + namesBytes(names); // the old names are counted until replaced
    if (this.entries + names.length > this.maxEntries) return this.overflow("entries");
    if (bytes > this.#maxBytes) return this.overflow("memory");
    if (bytes >= this.#nextHeapLook) {
      this.#nextHeapLook = bytes + this.#heapLook;
      if (this.#heapNearlyFull()) return this.overflow("memory");
    }
    this.hooks.learning?.(this.tree.pathOf(folder), names);
    this.tree.keep(folder, names, kinds, stamp.time, stamp.dev, stamp.ino);
    this.verified.add(folder); // just read from disk, after the walk checked its real path
    if (!this.#special && kinds.some((k) => k === 0)) this.#lookForSpecial(folder, names, kinds);
  }

  /**
   * Whether a FIFO or device file was listed in a watched folder (contract §18: the
   * runtime's watcher opens what an event names, and opening one blocks or acts): the
   * watch is then planned again, without that folder.
   */
  get special(): boolean {
    return this.#special;
  }

  /** Entries of no known kind (FIFOs, sockets, devices): one lstat each, never an open. */
  #lookForSpecial(folder: number, names: readonly string[], kinds: readonly number[]): void {
    const dir = this.tree.pathOf(folder);
    if (this.unwatched.includes(dir)) return; // read from disk by every scan: never watched
    const at = (name: string) => () => this.disk.lstat(dir + hostRules.sep + name);
    this.#special = names.some((name, i) => kinds[i] === 0 && isSpecial(at(name)));
  }

  protected overflow(why: Overflow): void {
    this.#overflowed = why;
    this.#overflowedAt = this.entries;
    this.record(false);
  }

  /**
   * Forgets what an event of `kind` on `abs` names (contract §18): a modified entry's stat;
   * for anything else (added, removed, renamed, unknown) the entry's stat and kind, what
   * was below it, and its folder's listing and own stat, so that nothing is carried over
   * to a name an event named. An event under a path through a link inside the root (the
   * runtime's watch follows links) changes the real folder the link leads to.
   */
  protected forget(abs: string, kind: string, resolved = false): void {
    // The root's own change (its mode, its time): its listing is read again. Anything else
    // of the root itself (removed, moved): start over.
    if (abs === this.root) {
      return kind === "modify" || kind === "access" ? this.#unlistAll(0) : this.clear();
    }
    if (!abs.startsWith(this.root + hostRules.sep)) return;
    const { parent, dir, name } = this.tree.parentOf(abs);
    if (parent < 0 && !resolved) {
      const real = realFolder(this.base, this.root, dir);
      if (real !== null && real !== dir) {
        return this.forget(real + hostRules.sep + name, kind, true);
      }
    }
    this.#unstat(abs);
    // A folder's own change (its mode, say) may change what the server's user may list
    // and stat under it: nothing held there is carried (issue 40).
    if (kind === "modify" || kind === "access") return this.#unlistAll(this.tree.node(abs, false));
    this.#relist(parent, dir);
    this.hooks.forgetting?.(abs, true);
    this.tree.drop(parent, name);
  }

  /** Forgets a folder's listing and its own stat (both changed): read again when needed. */
  #relist(folder: number, abs: string): void {
    this.tree.unlist(folder);
    this.#unstat(abs);
  }

  /** Forgets the stat of the entry at `abs`: read again when next needed. */
  #unstat(abs: string): void {
    const { parent, name } = this.tree.parentOf(abs);
    const e = this.tree.find(parent, name);
    if (e < 0) return;
    this.hooks.forgetting?.(abs, false);
    recordInfo(this.tree, parent, e, null);
  }
}
