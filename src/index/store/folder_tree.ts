/**
 * The folders of one root's live index (contract §18), kept compact: a folder is a record number
 * (the root is 0) with, once its listing was read, a run of entry numbers in the {@linkcode
 * EntryColumns} (sorted by name) and one string of all their names; its time, device and inode when
 * the listing was read; and whether the listing is held or only kept for the folders below it (an
 * event said it changed: it is read again when next needed). A folder entry leads to its record
 * through the columns' `sub`. So the V8 heap holds one string per folder and nothing per entry. A
 * folder listed again appends its new run and leaves the old one dead; the columns are compacted
 * once the dead outnumber half of them. Counts: entries held, the heap's share estimated from above
 * ({@linkcode FolderTree.bytes}, what the budget counts), and the bytes outside the heap.
 *
 * @module
 */
import { folderAbove, hostRules } from "../../security/mod.ts";
import { DIR, EntryColumns, SYMLINK } from "./entry_columns.ts";
import { FolderRecords, KEPT, KNOWN, LISTED } from "./folder_records.ts";
import { namesBytes } from "./memory_cost.ts";
import { findName, pairRuns } from "./pair_runs.ts";

/** Dead entries are left in place until there are this many, and half the columns. */
export const COMPACT_AT = 65_536;

/** The folders below one root's real path. */
export class FolderTree {
  readonly #root: string;
  readonly #sep = hostRules.sep;
  readonly #compactAt: number;
  #cols = new EntryColumns();
  readonly #rec = new FolderRecords();
  #names: string[] = [];
  #dead = 0;
  /** The last folder looked up, for the run of lookups on its entries. */
  #last: { abs: string; folder: number } | null = null;
  /** Entries of listed folders. */
  entries = 0;
  /** The heap the held names take, estimated from above. */
  bytes = 0;

  /** `compactAt`: dead entries to leave before compacting (@default {@linkcode COMPACT_AT}). */
  constructor(rootReal: string, compactAt = COMPACT_AT) {
    this.#root = rootReal;
    this.#compactAt = compactAt;
    this.clear();
  }

  /** The entries' columns (a compaction replaces them: read them anew after a `keep`). */
  get columns(): EntryColumns {
    return this.#cols;
  }

  /** Bytes held outside the V8 heap. */
  get offHeapBytes(): number {
    return this.#cols.bytes + this.#rec.bytes;
  }

  /** Forgets everything. */
  clear(): void {
    this.#cols = new EntryColumns();
    this.#rec.clear();
    this.#names = [""];
    this.#dead = 0;
    this.entries = 0;
    this.bytes = 0;
    this.#last = null;
  }

  /**
   * The record of a folder path at or below the root, or -1. Below the root, a folder is
   * found through the held or kept run of its parent; with `make`, its record is made if
   * it has none yet. The search starts from the last folder looked up, or the nearest
   * folder above it on `abs`'s path (a walk looks up a folder's children and siblings).
   */
  node(abs: string, make: boolean): number {
    const sep = this.#sep;
    const last = this.#last;
    if (last?.abs === abs) return last.folder;
    let folder = last?.folder ?? 0;
    let at = last?.abs ?? this.#root;
    while (folder > 0 && !atOrBelow(abs, at, sep)) {
      folder = this.#rec.parent[folder]!;
      at = at.slice(0, at.lastIndexOf(sep));
    }
    if (!atOrBelow(abs, at, sep)) return -1;
    for (let i = at.length; i < abs.length;) {
      const end = abs.indexOf(sep, i + 1);
      const part = abs.slice(i + 1, end < 0 ? abs.length : end);
      i = end < 0 ? abs.length : end;
      const e = this.find(folder, part);
      if (e < 0 || !(this.#cols.kind[e]! & DIR)) return -1;
      let sub = this.#cols.sub[e]!;
      if (sub < 0) {
        if (!make) return -1;
        sub = this.#rec.take(folder, e - this.#rec.first[folder]!);
        this.#names[sub] = "";
        this.#cols.sub[e] = sub; // unknown below, as before: no bound changes
      }
      folder = sub;
    }
    this.#last = { abs, folder };
    return folder;
  }

  /** The folder records, for what is cached per folder (subtree_times.ts). */
  get folders(): FolderRecords {
    return this.#rec;
  }

  /** Record numbers in use or free, `0 .. records - 1` (the background check goes round them). */
  get records(): number {
    return this.#rec.length;
  }

  /** The absolute path of a folder's record. */
  pathOf(folder: number): string {
    return [this.#root, ...this.namesUp(folder).reverse()].join(this.#sep);
  }

  /** The names of the folders from record `folder` up to the root's (its own left out). */
  namesUp(folder: number): string[] {
    const rec = this.#rec, names: string[] = [];
    for (let f = folder, p = rec.parent[f]!; f > 0; f = p, p = rec.parent[f]!) {
      names.push(this.nameOf(p, rec.first[p]! + rec.slot[f]!));
    }
    return names;
  }

  /**
   * The parent folder of an absolute path below the root: its path `dir`, its record (or
   * -1), and the entry's `name` in it.
   */
  parentOf(abs: string): { parent: number; dir: string; name: string } {
    const dir = folderAbove(abs);
    return { parent: this.node(dir, false), dir, name: abs.slice(dir.length + 1) };
  }

  /** Whether the folder's listing is held. */
  listed(folder: number): boolean {
    return folder >= 0 && this.#rec.state[folder] === LISTED;
  }

  /** Whether the folder's listing is held, or kept from before (names still known). */
  kept(folder: number): boolean {
    return folder >= 0 && this.#rec.state[folder]! >= KEPT;
  }

  /** The time, device and inode of a held listing's folder when it was read. */
  stamp(folder: number): { time: number; dev: number; ino: number } {
    const rec = this.#rec;
    return { time: rec.time[folder]!, dev: rec.dev[folder]!, ino: rec.ino[folder]! };
  }

  /** The first entry number of the folder's run, how many it holds, and its names in one string. */
  run(folder: number): { first: number; count: number; names: string } {
    const rec = this.#rec;
    return { first: rec.first[folder]!, count: rec.count[folder]!, names: this.#names[folder]! };
  }

  /** The name of entry `e` of the folder's run. */
  nameOf(folder: number, e: number): string {
    const start = e === this.#rec.first[folder] ? 0 : this.#cols.nameEnd[e - 1]!;
    return this.#names[folder]!.slice(start, this.#cols.nameEnd[e]!);
  }

  /** The entry number of `name` in the folder's held or kept run, or -1. */
  find(folder: number, name: string): number {
    if (folder < 0 || this.#rec.state[folder]! < KEPT) return -1;
    return findName(this.#cols.nameEnd, this.run(folder), name);
  }

  /**
   * Holds `names` with their `kinds` (in any order) as the folder's listing, read at `time` as
   * inode `ino` of device `dev`, none stat'ed yet; folders still in it keep what lies below them.
   */
  keep(
    folder: number,
    names: readonly string[],
    kinds: readonly number[],
    time: number,
    dev = 0,
    ino = 0,
  ): void {
    const n = names.length;
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
    const joined = order.map((i) => names[i]!).join("");
    const first = this.#cols.take(n);
    const cols = this.#cols;
    let end = 0;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      end += names[i]!.length;
      cols.listed(first + k, end, kinds[i]!);
    }
    const old = this.#rec.state[folder]! >= KEPT ? this.run(folder) : null;
    if (old) this.#endRun(folder);
    this.#rec.first[folder] = first;
    this.#rec.count[folder] = n;
    this.#names[folder] = joined;
    this.#rec.time[folder] = time;
    this.#rec.dev[folder] = dev;
    this.#rec.ino[folder] = ino;
    this.#rec.state[folder] = LISTED;
    this.#rec.touch(folder);
    this.entries += n;
    this.bytes += namesBytes(joined, n);
    if (old) this.#carry(folder, old);
    if (this.#dead >= this.#compactAt && this.#dead * 2 > cols.length) this.#compact();
  }

  /** Forgets a folder's listing (read again when next needed); what is below it stays. */
  unlist(folder: number): void {
    if (folder < 0 || this.#rec.state[folder] !== LISTED) return;
    this.#rec.state[folder] = KEPT;
    this.#rec.touch(folder);
    this.entries -= this.#rec.count[folder]!;
  }

  /** Forgets the folder `name` in `parent` and everything below it. */
  drop(parent: number, name: string): void {
    const e = this.find(parent, name);
    if (e < 0 || this.#cols.sub[e]! < 0) return;
    this.#forget(this.#cols.sub[e]!);
    this.#cols.sub[e] = -1;
    this.#rec.touch(parent);
  }

  /**
   * Carries what was known of the `old` run's entries to the same names in the new run: the folders
   * below those still folders, the stats of those of the same kind, but not of links (a link's new
   * target may lead out of the root). An entry whose event named it was unstat'ed first.
   */
  #carry(folder: number, old: { first: number; count: number; names: string }): void {
    const cols = this.#cols;
    const now = this.run(folder);
    const first = now.first;
    const forgetBelow = (o: number) => {
      if (cols.sub[o]! >= 0) this.#forget(cols.sub[o]!);
    };
    pairRuns(cols, old, now, (o, n) => {
      const kind = cols.kind[o]!;
      if (kind === cols.kind[n] && !(kind & SYMLINK)) {
        cols.mtime[n] = cols.mtime[o]!;
        cols.birth[n] = cols.birth[o]!;
        cols.size[n] = cols.size[o]!;
      }
      if (!(cols.kind[n]! & DIR)) return forgetBelow(o);
      cols.sub[n] = cols.sub[o]!;
      if (cols.sub[n]! >= 0) this.#rec.slot[cols.sub[n]!] = n - first;
    }, forgetBelow);
  }

  /** Ends a folder's run: its entries are dead (they stay until compacted). */
  #endRun(folder: number): void {
    const state = this.#rec.state[folder]!;
    if (state < KEPT) return;
    const count = this.#rec.count[folder]!;
    if (state === LISTED) this.entries -= count;
    this.#dead += count;
    this.bytes -= namesBytes(this.#names[folder]!, count);
    this.#rec.state[folder] = KNOWN;
  }

  /** Frees a folder's record and every record below it. */
  #forget(top: number): void {
    this.#last = null;
    const stack = [top];
    while (stack.length > 0) {
      const folder = stack.pop()!;
      if (this.#rec.state[folder]! >= KEPT) {
        const { first, count } = this.run(folder);
        for (let e = first; e < first + count; e++) {
          if (this.#cols.sub[e]! >= 0) stack.push(this.#cols.sub[e]!);
        }
        this.#endRun(folder);
      }
      this.#rec.release(folder);
      this.#names[folder] = "";
    }
  }

  /** Copies the runs still in use to new columns, leaving the dead entries behind. */
  #compact(): void {
    const old = this.#cols;
    const next = new EntryColumns(Math.ceil((old.length - this.#dead) * 1.25) + 1024);
    for (let folder = 0; folder < this.#rec.length; folder++) {
      if (this.#rec.state[folder]! < KEPT) continue;
      const count = this.#rec.count[folder]!;
      const to = next.take(count);
      next.copy(old, this.#rec.first[folder]!, count, to);
      this.#rec.first[folder] = to;
    }
    this.#cols = next;
    this.#dead = 0;
  }
}

/** Whether path `abs` is `at` or lies below it (both absolute, `sep`-separated, normalized). */
function atOrBelow(abs: string, at: string, sep: string): boolean {
  return abs.length === at.length ? abs === at : abs[at.length] === sep && abs.startsWith(at);
}
