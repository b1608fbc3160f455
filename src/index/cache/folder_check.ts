/**
 * The one check of a folder on disk the index makes (contract §18): its time, from one
 * `lstat` not following links, or that it is not a real folder. The background check, the
 * check before a read from disk and the answer-time check all ask it.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import { UNKNOWN_TIME } from "../store/mod.ts";

/**
 * A folder's modification time from one `lstat` of `abs`, not following links (`UNKNOWN_TIME` if
 * it has none), or `null` when it is not a real folder (a link, a file, gone, unreadable).
 */
export function folderTimeOnDisk(disk: FsPort, abs: string): number | null {
  try {
    const info = disk.lstat(abs);
    return info.isDirectory && !info.isSymlink ? info.mtime?.getTime() ?? UNKNOWN_TIME : null;
  } catch {
    return null;
  }
}
