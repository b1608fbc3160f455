/**
 * How a walk reads the live index's entries (contract §18): a held folder's entries as
 * `Deno.DirEntry`s, and an entry's stat as `Deno.FileInfo`, each through one object reused
 * for every entry (the port's callers read them at once), so that a walk from memory
 * allocates nothing per entry but its name; and how a stat read from disk, or forgotten,
 * is written back.
 *
 * @module
 */
import { type EntryColumns, kindOf, setKind, UNKNOWN_TIME } from "./entry_columns.ts";
import type { FolderTree } from "./folder_tree.ts";

/**
 * The entries of a held folder, in name order; with `next`, only those it gives: the first
 * entry number from `e` on (below `end`, the end of the run) to hand out.
 */
export function entriesOf(
  tree: FolderTree,
  folder: number,
  next?: (e: number, end: number) => number,
): Iterable<Deno.DirEntry> {
  return {
    [Symbol.iterator]() {
      const { first, count } = tree.run(folder);
      const cols = tree.columns;
      let e = first;
      const entry = { name: "", isDirectory: false, isFile: false, isSymlink: false };
      const result = { done: false, value: entry };
      return {
        next() {
          if (next) e = next(e, first + count);
          if (e >= first + count) return { done: true, value: undefined };
          entry.name = tree.nameOf(folder, e);
          setKind(entry, cols.kind[e++]!);
          return result;
        },
      } as Iterator<Deno.DirEntry>;
    },
  };
}

/** A time as `Deno.FileInfo` gives it, for as long as the reused info is read. */
class Instant {
  ms = 0;
  getTime(): number {
    return this.ms;
  }
}

/**
 * The parts of `Deno.FileInfo` a scan reads, in one object reused for every call (the
 * port's callers read it at once): a walk from memory allocates nothing per entry.
 */
const REUSED = {
  isFile: false,
  isDirectory: false,
  isSymlink: false,
  size: 0,
  mtime: null as Instant | null,
  birthtime: null as Instant | null,
  /** The device and inode, where known (a folder's, from the fill's feed); else 0. */
  dev: 0,
  ino: 0,
};
const MODIFIED = new Instant();
const BIRTH = new Instant();

/** A stat from its parts, in the reused object: times in epoch ms, or `UNKNOWN_TIME`. */
export function reusedInfo(
  kind: number,
  size: number,
  mtime: number,
  birth: number,
  dev = 0,
  ino = 0,
): Deno.FileInfo {
  setKind(REUSED, kind);
  REUSED.dev = dev;
  REUSED.ino = ino;
  REUSED.size = size;
  MODIFIED.ms = mtime;
  REUSED.mtime = Number.isNaN(mtime) ? null : MODIFIED;
  BIRTH.ms = birth;
  REUSED.birthtime = Number.isNaN(birth) ? null : BIRTH;
  return REUSED as unknown as Deno.FileInfo;
}

/** The stat of entry `e`, from the columns (its time must be known). */
export function infoOf(cols: EntryColumns, e: number): Deno.FileInfo {
  return reusedInfo(cols.kind[e]!, cols.size[e]!, cols.mtime[e]!, cols.birth[e]!);
}

/**
 * Records the stat of entry `e` of `folder`'s run, or forgets it (`null`: read again when
 * next needed); what is cached of the folders' times above it is made again.
 */
export function recordInfo(
  tree: FolderTree,
  folder: number,
  e: number,
  info: Deno.FileInfo | null,
): void {
  const cols = tree.columns;
  cols.mtime[e] = info?.mtime?.getTime() ?? UNKNOWN_TIME;
  if (info !== null) {
    cols.birth[e] = birthTime(info);
    cols.size[e] = info.size;
    cols.kind[e] = kindOf(info);
  }
  tree.folders.touch(folder);
}

/** The birth time of a stat, or {@linkcode UNKNOWN_TIME} (none, or exactly 0: contract §7). */
export function birthTime(info: Deno.FileInfo): number {
  return info.birthtime?.getTime() || UNKNOWN_TIME;
}
