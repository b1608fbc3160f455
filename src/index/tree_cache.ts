/**
 * The live index of one root (contract §18): what the walk learned of the tree (each
 * folder's listing and every entry's lstat), kept compact (names once, times and sizes in
 * typed arrays, one node per folder) and served back through the same
 * {@linkcode FsPort} a scan reads with, so that an indexed answer is a walk like any
 * other: the same filters, collector and paging, the same result.
 *
 * It records only while it is trusted (the watcher runs), and forgets what a change
 * event names: a changed entry's lstat, a folder's listing when an entry was added,
 * removed or renamed in it, a removed folder with everything below it.
 *
 * @module
 */
import type { FsPort } from "../ports/fs.ts";
import { hostRules } from "../security/path_guard.ts";
import { DIR, entriesOf, find, infoOf, kindOf, type Listing } from "./listing.ts";

/** A folder: its listing (once read) and the folders below it that were read. */
interface Node {
  listing: Listing | null;
  /** The folder's modification time just before its listing was read. */
  time: number;
  children: Map<string, Node>;
}

/** What a change event says (a subset of `Deno.FsEvent`). */
export interface Change {
  kind: string;
  paths: string[];
}

/** Options of {@linkcode TreeCache}. */
export interface TreeCacheOptions {
  /** Where misses are read: the real file system. */
  base: FsPort;
  /** The root's real path: every path the cache holds lies below it. */
  rootReal: string;
  /** The most entries kept; past it, {@linkcode TreeCache.overflowed} turns true. */
  maxEntries: number;
}

/** The index of one root, as a file-system port. */
export class TreeCache implements FsPort {
  readonly #base: FsPort;
  readonly #root: string;
  readonly #maxEntries: number;
  readonly #sep = hostRules.sep;
  #top: Node = newNode();
  #entries = 0;
  #recording = false;
  #overflowed = false;
  /** Bumped by every change, so a listing read across an await is not kept stale. */
  #generation = 0;
  /** The last folder looked up, for the run of lstat calls on its entries. */
  #last: { abs: string; node: Node } | null = null;

  constructor(options: TreeCacheOptions) {
    this.#base = options.base;
    this.#root = options.rootReal;
    this.#maxEntries = options.maxEntries;
  }

  /** Entries held. */
  get entries(): number {
    return this.#entries;
  }

  /** Whether the cache passed `maxEntries` (it then holds nothing and records nothing). */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  /** Starts (or stops) keeping what is read. Stopping forgets everything. */
  record(on: boolean): void {
    if (!on) this.clear();
    this.#recording = on && !this.#overflowed;
  }

  /** Forgets everything. */
  clear(): void {
    this.#top = newNode();
    this.#entries = 0;
    this.#last = null;
    this.#generation++;
  }

  /** Forgets what the change events name (contract §18). */
  apply(changes: readonly Change[]): void {
    this.#generation++;
    this.#last = null;
    for (const change of changes) {
      for (const abs of change.paths) this.#forget(abs, change.kind);
    }
  }

  readDir(path: string): Iterable<Deno.DirEntry> {
    const node = this.#node(path, this.#recording);
    if (node?.listing && this.#stillTrue(path, node)) return entriesOf(node.listing);
    const time = node ? this.#timeOf(path) : NaN; // before the listing: a later change shows
    const entries = [...this.#base.readDir(path)];
    if (node) this.#keep(node, entries, time);
    return entries;
  }

  async *readDirStream(path: string): AsyncIterable<Deno.DirEntry> {
    const node = this.#node(path, this.#recording);
    if (node?.listing && this.#stillTrue(path, node)) {
      yield* entriesOf(node.listing);
      return;
    }
    const generation = this.#generation;
    const time = node ? this.#timeOf(path) : NaN;
    const entries: Deno.DirEntry[] = [];
    for await (const entry of this.#base.readDirStream(path)) {
      entries.push(entry);
      yield entry;
    }
    // Events may have been applied while this listing was read: keep it only if none was.
    if (node && generation === this.#generation) this.#keep(node, entries, time);
  }

  lstat(path: string): Deno.FileInfo {
    const slash = path.lastIndexOf(this.#sep);
    const name = path.slice(slash + 1);
    const listing = this.#node(path.slice(0, slash), false)?.listing;
    const i = listing ? find(listing.names, name) : -1;
    // A folder's own stat (the root's too) is always read from disk, one call per folder:
    // its times are what show a change inside it that raised no event.
    if (listing && i >= 0 && !(listing.kinds[i]! & DIR) && !Number.isNaN(listing.mtime[i]!)) {
      return infoOf(listing, i);
    }
    const info = this.#base.lstat(path);
    if (listing && i >= 0 && this.#recording) {
      listing.mtime[i] = info.mtime?.getTime() ?? NaN;
      listing.birth[i] = info.birthtime?.getTime() ?? 0;
      listing.size[i] = info.size;
      listing.kinds[i] = kindOf(info);
    }
    return info;
  }

  holdsListing(path: string): boolean {
    return !!this.#node(path, false)?.listing;
  }

  realPath(path: string): string {
    // A folder the cache holds was listed as a real folder below the root's real path.
    if (path === this.#root || this.#node(path, false)?.listing) return path;
    return this.#base.realPath(path);
  }

  readTextFile(path: string): string {
    return this.#base.readTextFile(path);
  }

  /**
   * Checks a held listing against the disk, for what events can miss (the runtime drops
   * events on a path that now leads out of the root: a new link out, a folder swapped for
   * one): the folder's own modification time, one stat, must be what it was when the
   * listing was read; else the listing is read again.
   */
  #stillTrue(path: string, node: Node): boolean {
    if (this.#timeOf(path) === node.time) return true;
    this.#entries -= node.listing!.names.length;
    node.listing = null;
    this.#last = null;
    return false;
  }

  /** A folder's modification time from disk (`NaN` if it cannot be read). */
  #timeOf(path: string): number {
    try {
      return this.#base.lstat(path).mtime?.getTime() ?? NaN;
    } catch {
      return NaN;
    }
  }

  #keep(node: Node, entries: Deno.DirEntry[], time: number): void {
    if (this.#entries + entries.length > this.#maxEntries) {
      this.#overflowed = true;
      this.record(false);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const n = entries.length;
    const listing: Listing = {
      names: entries.map((e) => e.name),
      kinds: Uint8Array.from(entries, (e) => kindOf(e)),
      mtime: new Float64Array(n).fill(NaN),
      birth: new Float64Array(n),
      size: new Float64Array(n),
    };
    // Folders that are gone, or are no longer folders, go with everything below them.
    for (const name of [...node.children.keys()]) {
      const i = find(listing.names, name);
      if (i < 0 || !(listing.kinds[i]! & DIR)) this.#drop(node, name);
    }
    this.#entries += n - (node.listing?.names.length ?? 0);
    node.listing = listing;
    node.time = time;
  }

  /** The node of a folder path below the root (made on the way if `make`). */
  #node(abs: string, make: boolean): Node | null {
    if (this.#last?.abs === abs) return this.#last.node;
    if (abs !== this.#root && !abs.startsWith(this.#root + this.#sep)) return null;
    let node = this.#top;
    const rel = abs.slice(this.#root.length + 1);
    for (const part of rel === "" ? [] : rel.split(this.#sep)) {
      let child = node.children.get(part);
      if (!child) {
        if (!make) return null;
        child = newNode();
        node.children.set(part, child);
      }
      node = child;
    }
    this.#last = { abs, node };
    return node;
  }

  #forget(abs: string, kind: string): void {
    if (abs === this.#root) {
      this.clear(); // the root itself changed: start over
      return;
    }
    if (!abs.startsWith(this.#root + this.#sep)) return;
    const slash = abs.lastIndexOf(this.#sep);
    const parentAbs = abs.slice(0, slash);
    const name = abs.slice(slash + 1);
    const parent = this.#node(parentAbs, false);
    this.#last = null;
    if (!parent) return;
    if (kind === "modify" || kind === "access") {
      const i = parent.listing ? find(parent.listing.names, name) : -1;
      if (i >= 0) parent.listing!.mtime[i] = NaN;
      return;
    }
    // Added, removed, renamed or unknown: read the folder again, and forget what was below.
    if (parent.listing) {
      this.#entries -= parent.listing.names.length;
      parent.listing = null;
    }
    this.#drop(parent, name);
  }

  #drop(parent: Node, name: string): void {
    const child = parent.children.get(name);
    if (!child) return;
    parent.children.delete(name);
    this.#entries -= countBelow(child);
    this.#last = null;
  }
}

function newNode(): Node {
  return { listing: null, time: NaN, children: new Map() };
}

function countBelow(node: Node): number {
  let n = node.listing?.names.length ?? 0;
  for (const child of node.children.values()) n += countBelow(child);
  return n;
}
