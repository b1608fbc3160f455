/**
 * The answer-time check of the live index (contract §18): before an indexed answer is
 * given, every folder leading to one of its matches is checked on disk, from the root
 * down, not following links (one lstat each, each folder once per answer): it must still
 * be a real folder, and, where the index holds its listing, have the modification time,
 * device and inode the listing was read at. A folder that fails (a link now, gone, another
 * time: a change whose event the runtime dropped, or one that raced the answer; another
 * device or inode: a file system mounted over it, which no event reports) is forgotten, so
 * the index learns it again, and the caller scans again.
 *
 * @module
 */
import type { ScanOutcome } from "../../walk/mod.ts";
import type { FsPort } from "../../ports/mod.ts";
import { absoluteOf, ancestors } from "../../security/mod.ts";
import { folderChange, type FolderStamp } from "../cache/mod.ts";

/** What the check needs of the index. */
export interface FolderMemory {
  /** A held listing's folder's time, device and inode when read; `undefined` if none is held. */
  folderStamp(abs: string): FolderStamp | undefined;
  /** Forgets a folder's listing and everything below it. */
  forgetFolder(abs: string): void;
  /** The same, for a folder found on another device (its watch is to be set up again). */
  forgetMounted(abs: string): void;
}

/**
 * The folders (root-relative, the root as `""`) that lead to any match of `outcome`, and
 * the `start` folders (from {@linkcode startFolders}), each once, parents before children.
 */
export function answerFolders(outcome: ScanOutcome, start: readonly string[]): string[] {
  const { first, walkPrefix, all } = outcome.collected;
  const folders = new Set<string>(start); // with the folders above each, as below
  for (const list of [first, walkPrefix, all ?? []]) {
    for (const { path } of list) {
      for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
        const folder = path.slice(0, i);
        if (folders.has(folder)) break; // and so are the ones above it
        folders.add(folder);
      }
    }
  }
  // A folder's path is a prefix of its children's, so it sorts before them.
  return [...folders].sort();
}

/**
 * The folders (root-relative, parents first) leading to a scan's start path, and the start
 * itself when the index holds its listing (`memory` at `rootReal`): where the scan read
 * through even if it matched nothing.
 */
export function startFolders(start: string, memory: FolderMemory, rootReal: string): string[] {
  const folders = start === "" ? [""] : ["", ...ancestors(start)];
  if (start !== "" && memory.folderStamp(absoluteOf(rootReal, start)) !== undefined) {
    folders.push(start);
  }
  return folders;
}

/**
 * Checks `folders` (from {@linkcode answerFolders}) on `disk`; forgets each one found
 * changed in `memory` and returns them (none: the answer stands).
 */
export function checkFolders(
  disk: FsPort,
  memory: FolderMemory,
  rootReal: string,
  folders: readonly string[],
): string[] {
  const changed: string[] = [];
  for (const folder of folders) {
    // Below a changed folder, nothing is looked at: it is learned again with it.
    if (changed.some((c) => c === "" || folder.startsWith(c + "/"))) continue;
    const abs = absoluteOf(rootReal, folder);
    // Its parents were just found to be real folders.
    const change = folderChange(disk, abs, memory.folderStamp(abs));
    if (change === "same") continue;
    changed.push(folder);
    if (change === "device") memory.forgetMounted(abs);
    else memory.forgetFolder(abs);
  }
  return changed;
}
