/**
 * The entries of one root's live index (contract §18), as columns of typed arrays indexed
 * by an entry's number: where its name ends in its folder's names, its kind, its times and
 * size (an {@linkcode UNKNOWN_TIME} modification time until stat'ed), and the folder record it leads to (for a
 * folder that was looked into; -1 otherwise). No object per entry: the columns live
 * outside the V8 heap, so the heap holds only the folders' names (folder_tree.ts); what an
 * entry costs is in memory_cost.ts.
 *
 * @module
 */
import { ENTRY_COLUMN_BYTES } from "./memory_cost.ts";
import { grown } from "./typed_growth.ts";

/**
 * A time not known, the same in every column, in the folders' bounds and in the fill's
 * feed: an entry not stat'ed since it was listed or changed (its modification time), a
 * time the system gave none of (contract §7: none, or exactly 0, for a birth time), or a
 * bound below a folder not wholly held. `NaN`, so that it is neither inside nor outside
 * any window, and a bound it enters stays unknown.
 */
export const UNKNOWN_TIME = NaN;

/** Kind bits of an entry. */
export const DIR = 1;
export const FILE = 2;
export const SYMLINK = 4;

/** What a directory entry and a stat say of an entry's kind. */
interface Kinded {
  isDirectory: boolean;
  isFile: boolean;
  isSymlink: boolean;
}

/** The kind bits of a directory entry or a stat. */
export function kindOf(e: Kinded): number {
  return (e.isDirectory ? DIR : 0) | (e.isFile ? FILE : 0) | (e.isSymlink ? SYMLINK : 0);
}

/** Sets what `target` says of its kind from kind bits (the reverse of {@linkcode kindOf}). */
export function setKind<T extends Kinded>(target: T, kind: number): T {
  target.isDirectory = (kind & DIR) !== 0;
  target.isFile = (kind & FILE) !== 0;
  target.isSymlink = (kind & SYMLINK) !== 0;
  return target;
}

/** The columns of the entries; numbers `0 .. length - 1` are taken. */
export class EntryColumns {
  /** Where the entry's name ends in its folder's string of names (it starts where the last ended). */
  nameEnd: Uint32Array;
  kind: Uint8Array;
  mtime: Float64Array;
  /** Birth time, epoch ms; 0 when the system has none. */
  birth: Float64Array;
  size: Float64Array;
  /** The folder record this entry leads to, or -1. */
  sub: Int32Array;
  /** Entry numbers in use (some of them dead, until compacted). */
  length = 0;

  constructor(capacity = 1024) {
    this.nameEnd = new Uint32Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.mtime = new Float64Array(capacity);
    this.birth = new Float64Array(capacity);
    this.size = new Float64Array(capacity);
    this.sub = new Int32Array(capacity);
  }

  /** Entries the columns have room for. */
  get capacity(): number {
    return this.kind.length;
  }

  /** Bytes the columns take (outside the V8 heap). */
  get bytes(): number {
    return this.capacity * ENTRY_COLUMN_BYTES;
  }

  /** Takes `n` more numbers, growing the columns if needed; returns the first. */
  take(n: number): number {
    const first = this.length;
    if (first + n > this.capacity) this.#grow(Math.max(first + n, Math.ceil(this.capacity * 1.5)));
    this.length += n;
    return first;
  }

  /** Sets entry `e` as listed and not stat'ed: its name's end and its kind; nothing below. */
  listed(e: number, nameEnd: number, kind: number): void {
    this.nameEnd[e] = nameEnd;
    this.kind[e] = kind;
    this.mtime[e] = UNKNOWN_TIME;
    this.birth[e] = UNKNOWN_TIME;
    this.size[e] = 0;
    this.sub[e] = -1;
  }

  /** Copies `n` entries from number `from` of `source` to number `to` of these columns. */
  copy(source: EntryColumns, from: number, n: number, to: number): void {
    const end = from + n;
    this.nameEnd.set(source.nameEnd.subarray(from, end), to);
    this.kind.set(source.kind.subarray(from, end), to);
    this.mtime.set(source.mtime.subarray(from, end), to);
    this.birth.set(source.birth.subarray(from, end), to);
    this.size.set(source.size.subarray(from, end), to);
    this.sub.set(source.sub.subarray(from, end), to);
  }

  #grow(capacity: number): void {
    this.nameEnd = grown(this.nameEnd, capacity);
    this.kind = grown(this.kind, capacity);
    this.mtime = grown(this.mtime, capacity);
    this.birth = grown(this.birth, capacity);
    this.size = grown(this.size, capacity);
    this.sub = grown(this.sub, capacity);
  }
}
