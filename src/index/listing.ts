/**
 * One folder's entries as the live index keeps them (contract §18): names once, sorted,
 * kinds in a `Uint8Array`, times and sizes in `Float64Array`s (`NaN` until stat'ed), and
 * the ways a walk reads them without allocating per entry.
 *
 * @module
 */

/** Kind bits of an entry. */
export const DIR = 1;
export const FILE = 2;
export const SYMLINK = 4;

/** A folder's entries, sorted by name; times and sizes `NaN` until stat'ed. */
export interface Listing {
  names: string[];
  kinds: Uint8Array;
  mtime: Float64Array;
  birth: Float64Array;
  size: Float64Array;
}

/** The kind bits of a directory entry or a stat. */
export function kindOf(e: { isDirectory: boolean; isFile: boolean; isSymlink: boolean }): number {
  return (e.isDirectory ? DIR : 0) | (e.isFile ? FILE : 0) | (e.isSymlink ? SYMLINK : 0);
}

/**
 * A listing of `names` with their `kinds` (in any order, as read), sorted by name; times
 * and sizes unknown until stat'ed.
 */
export function makeListing(names: string[], kinds: number[]): Listing {
  const n = names.length;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
  return {
    names: order.map((i) => names[i]!),
    kinds: Uint8Array.from(order, (i) => kinds[i]!),
    mtime: new Float64Array(n).fill(NaN),
    birth: new Float64Array(n),
    size: new Float64Array(n),
  };
}

/**
 * What a listing of these names costs in memory, estimated from above (contract §18's
 * budget; docs/index.md has the measured figures): a folder's fixed part (its node, the
 * listing, four typed arrays, its place in its parent's map) and, per entry, the name
 * (a V8 string: a header and one or two bytes a character), its slot in the array of
 * names, its kind and three 8-byte numbers.
 */
export function listingBytes(names: readonly string[]): number {
  let bytes = FOLDER_BYTES;
  for (const name of names) bytes += ENTRY_BYTES + name.length * 2;
  return bytes;
}

/** The fixed cost of a folder's listing, in bytes (measured: docs/index.md). */
export const FOLDER_BYTES = 1200;
/** The cost of one entry besides its name's characters, in bytes (measured: docs/index.md). */
export const ENTRY_BYTES = 40;

/** The index of `name` in sorted `names`, or -1. */
export function find(names: string[], name: string): number {
  let lo = 0;
  let hi = names.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = names[mid]!;
    if (m === name) return mid;
    if (m < name) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The entries of a listing, as one entry object reused for each (read at once, as the walk
 * does), leaving out those `skip` names.
 */
export function entriesOf(
  listing: Listing,
  skip?: (i: number) => boolean,
): Iterable<Deno.DirEntry> {
  return {
    [Symbol.iterator]() {
      let i = 0;
      const entry = { name: "", isDirectory: false, isFile: false, isSymlink: false };
      const result = { done: false, value: entry };
      return {
        next() {
          if (skip) { while (i < listing.names.length && skip(i)) i++; }
          if (i >= listing.names.length) return { done: true, value: undefined };
          const kind = listing.kinds[i]!;
          entry.name = listing.names[i]!;
          entry.isDirectory = (kind & DIR) !== 0;
          entry.isFile = (kind & FILE) !== 0;
          entry.isSymlink = (kind & SYMLINK) !== 0;
          i++;
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
 * The parts of `Deno.FileInfo` a scan reads, from the cache, in one object reused for
 * every call (the port's callers read it at once): a walk from memory allocates nothing
 * per entry.
 */
const REUSED = {
  isFile: false,
  isDirectory: false,
  isSymlink: false,
  size: 0,
  mtime: new Instant(),
  birthtime: null as Instant | null,
};
const BIRTH = new Instant();

export function infoOf(listing: Listing, i: number): Deno.FileInfo {
  const kind = listing.kinds[i]!;
  const birth = listing.birth[i]!;
  REUSED.isFile = (kind & FILE) !== 0;
  REUSED.isDirectory = (kind & DIR) !== 0;
  REUSED.isSymlink = (kind & SYMLINK) !== 0;
  REUSED.size = listing.size[i]!;
  REUSED.mtime.ms = listing.mtime[i]!;
  BIRTH.ms = birth;
  REUSED.birthtime = birth === 0 ? null : BIRTH;
  return REUSED as unknown as Deno.FileInfo;
}
