/**
 * The live index of one root (contract §18): what the walk learned of the tree (each
 * folder's listing and every entry's lstat), kept compact (one string of names per folder,
 * everything else in typed arrays outside the heap: folder_tree.ts, entry_columns.ts) and
 * served back through the same
 * {@linkcode FsPort} a scan reads with, so that an indexed answer is a walk like any
 * other: the same filters, collector and paging, the same result.
 *
 * It records only while it is trusted (the watcher runs), and forgets what a change event
 * names: a changed entry's lstat, a folder's listing when an entry was added, removed or
 * renamed in it, a removed folder with everything below it. It never answers a
 * containment question from memory: `realPath` and every folder's own stat go to the disk,
 * so the walk's realpath checks (contract §6, §8) hold as they do without it.
 *
 * It lives within a memory budget: past `maxEntries` entries or `maxBytes` of estimated
 * memory, or when the heap is nearly full, it drops everything, stops recording and says
 * why ({@linkcode TreeCache.overflowed}).
 *
 * @module
 */
import type { FsPort } from "../ports/mod.ts";
import { hostRules } from "../security/mod.ts";
import { folderTimeOnDisk } from "./answer_check.ts";
import { DIR, kindOf } from "./entry_columns.ts";
import { FolderTree } from "./folder_tree.ts";
import { namesBytes } from "./memory_cost.ts";
import { type Focus, outside } from "./focus.ts";
import { entriesOf, infoOf } from "./listing.ts";

/** What a change event says (a subset of `Deno.FsEvent`). */
export interface Change {
  kind: string;
  paths: string[];
}

/** Why a cache stopped recording: too many entries, or its memory budget. */
export type Overflow = "entries" | "memory";

/** Options of {@linkcode TreeCache}. */
export interface TreeCacheOptions {
  /** Where misses are read: the real file system. */
  base: FsPort;
  /** The root's real path: every path the cache holds lies below it. */
  rootReal: string;
  /** The most entries kept (`INDEX_MAX_ENTRIES`). */
  maxEntries: number;
  /** The most heap the names may take, as `namesBytes` estimates it. Default: no bound. */
  maxBytes?: number;
  /** Whether the heap is nearly full (asked once per 1 MB kept). Default: never. */
  heapNearlyFull?: () => boolean;
}

/** How much kept memory passes between two looks at the heap. */
const HEAP_LOOK_BYTES = 1024 * 1024;

/** The index of one root, as a file-system port. */
export class TreeCache implements FsPort {
  readonly #base: FsPort;
  readonly #root: string;
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #heapNearlyFull: () => boolean;
  readonly #tree: FolderTree;
  #nextHeapLook = HEAP_LOOK_BYTES;
  #recording = false;
  #overflowed: Overflow | null = null;
  #overflowedAt = 0;
  /** Bumped by every change, so a listing read across an await is not kept stale. */
  #generation = 0;
  #focus: Focus | null = null;
  #dropped = 0;

  constructor(options: TreeCacheOptions) {
    this.#base = options.base;
    this.#root = options.rootReal;
    this.#maxEntries = options.maxEntries;
    this.#maxBytes = options.maxBytes ?? Infinity;
    this.#heapNearlyFull = options.heapNearlyFull ?? (() => false);
    this.#tree = new FolderTree(options.rootReal);
  }

  /** Entries held. */
  get entries(): number {
    return this.#tree.entries;
  }

  /** Heap bytes held, estimated from above (what the budget counts). */
  get bytes(): number {
    return this.#tree.bytes;
  }

  /** Bytes held outside the heap (the entries' columns). */
  get offHeapBytes(): number {
    return this.#tree.offHeapBytes;
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
    this.#recording = on && this.#overflowed === null;
  }

  /**
   * Hands out only what can match `focus` from held listings (focus.ts), until focused
   * otherwise; counts what it leaves out from now on ({@linkcode TreeCache.dropped}).
   */
  focus(focus: Focus | null): void {
    this.#focus = focus;
    this.#dropped = 0;
  }

  /** Entries left out since the last `focus`. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Forgets everything. */
  clear(): void {
    this.#tree.clear();
    this.#nextHeapLook = HEAP_LOOK_BYTES;
    this.#generation++;
  }

  /** Forgets what the change events name (contract §18). */
  apply(changes: readonly Change[]): void {
    this.#generation++;
    for (const change of changes) {
      for (const abs of change.paths) this.#forget(abs, change.kind);
    }
  }

  readDir(path: string): Iterable<Deno.DirEntry> {
    const folder = this.#tree.node(path, this.#recording);
    if (this.#tree.listed(folder) && this.#stillTrue(path, folder)) return this.#handOut(folder);
    const time = folder >= 0 ? this.#timeOf(path) : NaN; // before the listing: a later change shows
    const entries = [...this.#base.readDir(path)];
    if (folder >= 0) this.#keep(folder, entries.map((e) => e.name), entries.map(kindOf), time);
    return entries;
  }

  async *readDirStream(path: string): AsyncIterable<Deno.DirEntry> {
    const folder = this.#tree.node(path, this.#recording);
    if (this.#tree.listed(folder) && this.#stillTrue(path, folder)) {
      yield* Array.from(this.#handOut(folder), (e) => ({ ...e })); // not read at once here
      return;
    }
    const generation = this.#generation;
    const time = folder >= 0 ? this.#timeOf(path) : NaN;
    // Only names and kinds are held while the folder streams (not Deno's entry objects),
    // and not even those past what the cache may still take.
    let names: string[] | null = folder >= 0 ? [] : null;
    const kinds: number[] = [];
    for await (const entry of this.#base.readDirStream(path)) {
      if (names !== null) {
        names.push(entry.name);
        kinds.push(kindOf(entry));
        if (this.entries + names.length > this.#maxEntries) names = null;
      }
      yield entry;
    }
    // Events may have been applied while this listing was read: keep it only if none was.
    if (folder >= 0 && generation === this.#generation) {
      if (names === null) this.#overflow("entries");
      else this.#keep(folder, names, kinds, time);
    }
  }

  lstat(path: string): Deno.FileInfo {
    const { parent, name } = this.#tree.parentOf(path);
    const e = this.#tree.listed(parent) ? this.#tree.find(parent, name) : -1;
    const cols = this.#tree.columns;
    // A folder's own stat (the root's too) is always read from disk, one call per folder:
    // its times are what show a change inside it that raised no event.
    if (e >= 0 && !(cols.kind[e]! & DIR) && !Number.isNaN(cols.mtime[e]!)) return infoOf(cols, e);
    const info = this.#base.lstat(path);
    if (e >= 0 && this.#recording) {
      cols.mtime[e] = info.mtime?.getTime() ?? NaN;
      cols.birth[e] = info.birthtime?.getTime() ?? 0;
      cols.size[e] = info.size;
      cols.kind[e] = kindOf(info);
    }
    return info;
  }

  holdsListing(path: string): boolean {
    return this.#tree.listed(this.#tree.node(path, false));
  }

  realPath(path: string): string {
    // Never from memory: a folder may have been swapped for a link out of the root, and
    // the runtime drops the events that would say so (contract §18).
    return this.#base.realPath(path);
  }

  readTextFile(path: string): string {
    return this.#base.readTextFile(path);
  }

  /** The time a held folder listing was read at, or `undefined` when none is held. */
  folderTime(path: string): number | undefined {
    const folder = this.#tree.node(path, false);
    return this.#tree.listed(folder) ? this.#tree.time(folder) : undefined;
  }

  /** Forgets a folder's listing and everything below it: it is read again when next needed. */
  forgetFolder(path: string): void {
    this.#generation++;
    if (path === this.#root) return this.clear();
    const { parent, name } = this.#tree.parentOf(path);
    this.#tree.drop(parent, name);
  }

  /**
   * Checks a held listing against the disk, for what events can miss (the runtime drops
   * events on a path that now leads out of the root: a new link out, a folder swapped for
   * one): the folder must still be a real folder with the modification time it had when
   * the listing was read (one lstat, not following links); else the listing is read again.
   */
  #stillTrue(path: string, folder: number): boolean {
    if (this.#timeOf(path) === this.#tree.time(folder)) return true;
    this.#tree.unlist(folder);
    return false;
  }

  /** A held folder's entries, without those out of focus. */
  #handOut(folder: number): Iterable<Deno.DirEntry> {
    const focus = this.#focus;
    if (focus === null) return entriesOf(this.#tree, folder);
    const cols = this.#tree.columns;
    return entriesOf(this.#tree, folder, (e) => {
      if (!outside(focus, cols, e)) return false;
      this.#dropped++;
      return true;
    });
  }

  /** A real folder's modification time from disk (`NaN` if it is not one, or unreadable). */
  #timeOf(path: string): number {
    return folderTimeOnDisk(this.#base, path) ?? NaN;
  }

  #keep(folder: number, names: string[], kinds: number[], time: number): void {
    const bytes = this.bytes + namesBytes(names); // the old names are counted until replaced
    if (this.entries + names.length > this.#maxEntries) return this.#overflow("entries");
    if (bytes > this.#maxBytes) return this.#overflow("memory");
    if (bytes >= this.#nextHeapLook) {
      this.#nextHeapLook = bytes + HEAP_LOOK_BYTES;
      if (this.#heapNearlyFull()) return this.#overflow("memory");
    }
    this.#tree.keep(folder, names, kinds, time);
  }

  #overflow(why: Overflow): void {
    this.#overflowed = why;
    this.#overflowedAt = this.entries;
    this.record(false);
  }

  #forget(abs: string, kind: string): void {
    if (abs === this.#root) return this.clear(); // the root itself changed: start over
    if (!abs.startsWith(this.#root + hostRules.sep)) return;
    const { parent, name } = this.#tree.parentOf(abs);
    if (parent < 0) return;
    if (kind === "modify" || kind === "access") {
      const e = this.#tree.find(parent, name);
      if (e >= 0) this.#tree.columns.mtime[e] = NaN;
      return;
    }
    // Added, removed, renamed or unknown: read the folder again, and forget what was below.
    this.#tree.unlist(parent);
    this.#tree.drop(parent, name);
  }
}
