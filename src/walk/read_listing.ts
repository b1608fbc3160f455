/**
 * One folder's listing as the walk reads it (contract §8, §11): checked to still lie
 * inside the root, read in one call or, when huge, as a stream, and turned into the keys
 * the walk visits in path order.
 *
 * @module
 */
import type { FsPort } from "../ports/mod.ts";
import { assertStillInside, type Guard } from "../security/mod.ts";
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
}

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
 * in one synchronous call, which is several times faster.
 *
 * @throws `Deno.errors.*` from the listing, or {@linkcode LeftRootError}.
 */
export function readListing(
  fs: FsPort,
  abs: string,
  prefix: string,
  options: ListingRules,
  depth: number,
): Listing | Promise<Listing> {
  assertStillInside(fs, options.rootReal, abs, options.guard);
  const listing: Listing = { keys: [], directories: new Set() };
  const { exclusion } = options;
  const wanted: string[] = [];
  const add = (entry: Deno.DirEntry) => {
    listing.keys.push(entry.name);
    if (entry.isDirectory) {
      listing.directories.add(entry.name);
      if (depth < options.maxDepth) listing.keys.push(entry.name + "/");
    } else if (entry.isFile && exclusion?.wantsFile(entry.name)) {
      wanted.push(entry.name);
    }
  };
  const done = () => {
    listing.keys.sort(); // the default order compares UTF-16 code units, as `<` does
    exclusion?.enter(folderOf(prefix), abs, wanted);
    return listing;
  };
  if (!fs.holdsListing?.(abs) && fs.lstat(abs).size > LARGE_DIRECTORY_BYTES) {
    return (async () => {
      for await (const entry of fs.readDirStream(abs)) add(entry);
      return done();
    })();
  }
  for (const entry of fs.readDir(abs)) add(entry);
  return done();
}
