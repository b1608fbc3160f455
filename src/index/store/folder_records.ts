/**
 * The folder records of one root's live index (contract §18), as typed arrays indexed by a
 * record's number (the root is 0): the run of entries its listing holds, the time the
 * listing was read at, its state, and where it hangs: its parent's record and its place
 * in the parent's run (stable across compactions, which move runs whole). Numbers freed
 * are taken again. Each record also caches what is below it, for answers that skip whole
 * subtrees (subtree_times.ts): the bounds of the times there and how many files and
 * listings it holds, valid until something at or below it changes ({@linkcode
 * FolderRecords.touch}).
 *
 * @module
 */
import { RECORD_BYTES } from "./memory_cost.ts";
import { grown } from "./typed_growth.ts";

/** A record's states: free; known, no run; run kept only for the folders below; listed. */
export const FREE = 0;
export const KNOWN = 1;
export const KEPT = 2;
export const LISTED = 3;

/** The records of one root's folders. */
export class FolderRecords {
  first = new Uint32Array(64);
  count = new Uint32Array(64);
  time = new Float64Array(64);
  /** The folder's device and inode when its listing was read (a mount over it changes them). */
  dev = new Float64Array(64);
  ino = new Float64Array(64);
  state = new Uint8Array(64);
  parent = new Int32Array(64);
  /** The record's place in its parent's run (its entry is `first[parent] + slot`). */
  slot = new Uint32Array(64);
  /** Bounds of the modification and birth times at and below the folder (NaN: unknown). */
  mtimeLo = new Float64Array(64);
  mtimeHi = new Float64Array(64);
  birthLo = new Float64Array(64);
  birthHi = new Float64Array(64);
  /**
   * The same bounds over the files alone (no folder's own time): what a files-only question
   * can match below the folder (contract §18: a tree whose folders all changed lately, its
   * files old, as a fresh clone or an unpack leaves it).
   */
  fileMtimeLo = new Float64Array(64);
  fileMtimeHi = new Float64Array(64);
  fileBirthLo = new Float64Array(64);
  fileBirthHi = new Float64Array(64);
  /** Files (non-folder entries) and listings at and below the folder. */
  files = new Float64Array(64);
  listings = new Float64Array(64);
  /** Whether the cached bounds and counts hold (1) or must be made again (0). */
  bounded = new Uint8Array(64);
  /**
   * Whether the record changed (1: its run, a stat in it, or its number freed or taken)
   * since {@linkcode FolderRecords.markChanges} began a mark (index/focus/time_snapshot.ts).
   */
  changed = new Uint8Array(64);
  /** Numbers in use or freed: `0 .. length - 1`. */
  length = 1;
  #free: number[] = [];
  /** The records changed since the mark, in order; `null`: too many, or no mark. */
  #changes: number[] | null = null;
  /** How many records a mark lists at most. */
  #most = 0;
  /** Counts the times every record was forgotten at once: a mark made before is void. */
  cleared = 0;

  constructor() {
    this.clear();
  }

  /** Records in use (the root's among them). */
  get live(): number {
    return this.length - this.#free.length;
  }

  /** Bytes the records take (outside the V8 heap). */
  get bytes(): number {
    return this.state.length * RECORD_BYTES;
  }

  /** Forgets every record but the root's. */
  clear(): void {
    this.state.fill(FREE);
    this.bounded.fill(0);
    this.cleared++;
    this.#changes = null;
    this.state[0] = KNOWN;
    this.parent[0] = -1;
    this.length = 1;
    this.#free = [];
  }

  /** A new record, known, under `parent` at `slot` of its run. */
  take(parent: number, slot: number): number {
    const folder = this.#free.pop() ?? this.length++;
    if (folder >= this.state.length) this.#grow(Math.ceil(this.state.length * 1.5));
    this.state[folder] = KNOWN;
    this.parent[folder] = parent;
    this.slot[folder] = slot;
    this.bounded[folder] = 0;
    this.#changed(folder);
    return folder;
  }

  /**
   * Says that something at `folder` changed (its run, an entry's stat, a record below it):
   * its cached bounds and those of the folders above it are made again when next asked.
   * A folder whose bounds are not cached has none above it cached that count it (they
   * were made from its own, which are made first), so the climb stops there.
   */
  touch(folder: number): void {
    this.bounded[folder] = 0;
    this.#changed(folder);
    for (let f = this.parent[folder]!; f >= 0 && this.bounded[f]; f = this.parent[f]!) {
      this.bounded[f] = 0;
    }
  }

  /** Frees a record's number. */
  release(folder: number): void {
    this.state[folder] = FREE;
    this.#free.push(folder);
    this.#changed(folder);
  }

  /**
   * Begins a mark: from now on each record that changes is flagged in `changed` and listed,
   * up to `most` of them (past that, {@linkcode FolderRecords.changes} is `null`).
   */
  markChanges(most: number): void {
    this.changed.fill(0);
    this.#changes = [];
    this.#most = most;
  }

  /** The records changed since the mark, or `null` (no mark, more than its most, or cleared). */
  get changes(): readonly number[] | null {
    return this.#changes;
  }

  #changed(folder: number): void {
    const changes = this.#changes;
    if (changes === null || this.changed[folder]) return;
    this.changed[folder] = 1;
    if (changes.length >= this.#most) this.#changes = null;
    else changes.push(folder);
  }

  #grow(n: number): void {
    this.first = grown(this.first, n);
    this.count = grown(this.count, n);
    this.time = grown(this.time, n);
    this.dev = grown(this.dev, n);
    this.ino = grown(this.ino, n);
    this.state = grown(this.state, n);
    this.parent = grown(this.parent, n);
    this.slot = grown(this.slot, n);
    this.mtimeLo = grown(this.mtimeLo, n);
    this.mtimeHi = grown(this.mtimeHi, n);
    this.birthLo = grown(this.birthLo, n);
    this.birthHi = grown(this.birthHi, n);
    this.fileMtimeLo = grown(this.fileMtimeLo, n);
    this.fileMtimeHi = grown(this.fileMtimeHi, n);
    this.fileBirthLo = grown(this.fileBirthLo, n);
    this.fileBirthHi = grown(this.fileBirthHi, n);
    this.files = grown(this.files, n);
    this.listings = grown(this.listings, n);
    this.bounded = grown(this.bounded, n);
    this.changed = grown(this.changed, n);
  }
}
