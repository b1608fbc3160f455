/**
 * One folder's listing as the walk reads it (contract §8, §11): checked to still lie
 * inside the root, read in one call or, when huge, as a stream, and turned into the keys
 * the walk visits in path order.
 *
 * @module
 */
import type { FsPort } from "../ports/mod.ts";
import { assertStillInside, type Guard, hostRules } from "../security/mod.ts";
import type { Exclusion } from "./exclusion.ts";

/**
 * One directory's listing, compact: its keys in order (a name, or a directory's name
 * plus "/" for its subtree; names never hold "/") and which names are directories.
 * Deno's own entry objects are dropped as soon as they are read (they cost ~400 bytes
 * each, which matters for a folder of 200,000 entries).
 */
export interface Listing {
  keys: string[];
  directories: Set<string>;
  /** Entries left out because their names could not be decoded ({@linkcode UNDECODED}). */
  undecodable: number;
}

/**
 * What the runtime puts in a name for bytes that are not valid UTF-8 (contract §6). Such a
 * name may not be the entry's: several entries can come back as one name, and the name
 * leads to another entry, or none. Of the entries listed under a name that holds it, one is
 * kept if an `lstat` of the name finds an entry of its kind (the real one); the others are
 * left out and counted as skipped.
 */
export const UNDECODED = "\uFFFD";

/** The folder path of a listing's prefix: `""` or `"a/b"` for `"a/b/"`. */
export function folderOf(prefix: string): string {
  return prefix === "" ? "" : prefix.slice(0, -1);
}

/** What reading a listing takes from the walk's options. */
export interface ListingRules {
  rootReal: string;
  guard: Guard;
  maxDepth: number;
  exclusion: Exclusion | null;
}

/** Folders whose own size (as `lstat` reports it) is above this are streamed. */
export const LARGE_DIRECTORY_BYTES = 1024 * 1024;

/**
 * Reads and orders one directory's listing. A huge folder (by its own size: about
 * 30,000 entries on ext4) is read as a stream, so memory stays bounded; all others
 * in one synchronous call, which is several times faster. `size`: the folder's own size,
 * when the walk has its stat already (else it is taken here).
 *
 * @throws `Deno.errors.*` from the listing, or {@linkcode LeftRootError}.
 */
export function readListing(
  fs: FsPort,
  abs: string,
  prefix: string,
  options: ListingRules,
  depth: number,
  size?: number,
): Listing | Promise<Listing> {
  assertStillInside(fs, options.rootReal, abs, options.guard);
  const listing: Listing = { keys: [], directories: new Set(), undecodable: 0 };
  const { exclusion } = options;
  const wanted: string[] = [];
  const odd: Deno.DirEntry[] = [];
  const add = (entry: Deno.DirEntry) => {
    if (entry.name.includes(UNDECODED)) odd.push({ ...entry });
    else keep(entry);
  };
  const keep = (entry: Deno.DirEntry) => {
    listing.keys.push(entry.name);
    if (entry.isDirectory) {
      listing.directories.add(entry.name);
      if (depth < options.maxDepth) listing.keys.push(entry.name + "/");
    } else if (entry.isFile && exclusion?.wantsFile(entry.name)) {
      wanted.push(entry.name);
    }
  };
  const done = () => {
    for (const entry of odd.length > 0 ? decoded(fs, abs, listing, odd) : []) keep(entry);
    listing.keys.sort(); // the default order compares UTF-16 code units, as `<` does
    exclusion?.enter(folderOf(prefix), abs, wanted);
    return listing;
  };
  const held = size === undefined && fs.holdsListing?.(abs) === true;
  if (!held && (size ?? fs.lstat(abs).size) > LARGE_DIRECTORY_BYTES) {
    return (async () => {
      for await (const entry of fs.readDirStream(abs)) add(entry);
      return done();
    })();
  }
  for (const entry of fs.readDir(abs)) add(entry);
  return done();
}

/**
 * The entries of `odd` (names with U+FFFD) that are their names' (contract §6): of those
 * that share a name, at most one, and only if an `lstat` of the name finds an entry of its
 * kind (the real one); the others are counted in `listing.undecodable`.
 */
function decoded(
  fs: FsPort,
  abs: string,
  listing: Listing,
  odd: readonly Deno.DirEntry[],
): Deno.DirEntry[] {
  const byName = Map.groupBy(odd, (entry) => entry.name);
  const kept: Deno.DirEntry[] = [];
  for (const [name, group] of byName) {
    let info: Deno.FileInfo | null = null;
    try {
      info = fs.lstat(abs + hostRules.sep + name);
    } catch { /* no entry by that name: none of them is it */ }
    const real = info &&
      group.find((e) =>
        e.isFile === info.isFile && e.isDirectory === info.isDirectory &&
        e.isSymlink === info.isSymlink
      );
    if (real) kept.push(real);
    listing.undecodable += group.length - (real ? 1 : 0);
  }
  return kept;
}
