/**
 * The one check of a folder on disk the index makes (contract §18): its time, device and
 * inode, from one `lstat` not following links, or that it is not a real folder. The
 * background check, the check before a read from disk and the answer-time check all ask it.
 * The device and inode tell a file system mounted over a held folder (or unmounted from it,
 * or a folder bound over it from the same file system), whose time may well be the same
 * (issue 40).
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import { UNKNOWN_TIME } from "../store/mod.ts";

/** What a folder's check compares. */
export interface FolderStamp {
  /** Its modification time in epoch ms (`UNKNOWN_TIME` if it has none). */
  time: number;
  /** Its device and inode (0 where the system gives none). */
  dev: number;
  ino: number;
}

/** The stamp of a folder's stat. */
export function stampOf(info: Deno.FileInfo): FolderStamp {
  return { time: info.mtime?.getTime() ?? UNKNOWN_TIME, dev: info.dev ?? 0, ino: info.ino ?? 0 };
}

/**
 * A folder's stamp from one `lstat` of `abs`, not following links, or `null` when it is not
 * a real folder (a link, a file, gone, unreadable).
 */
export function folderOnDisk(disk: FsPort, abs: string): FolderStamp | null {
  try {
    const info = disk.lstat(abs);
    return info.isDirectory && !info.isSymlink ? stampOf(info) : null;
  } catch {
    return null;
  }
}

/**
 * How folder `abs` on disk compares with the stamp held of it: not a real folder now
 * (`gone`), the same, another time, or another folder there (another device or inode: a
 * mount, or a folder made anew). With no stamp held, only whether it is a real folder.
 */
export function folderChange(
  disk: FsPort,
  abs: string,
  held: FolderStamp | undefined,
): "gone" | "same" | "time" | "device" {
  const now = folderOnDisk(disk, abs);
  if (now === null) return "gone";
  if (held === undefined) return "same";
  if (now.dev !== held.dev || now.ino !== held.ino) return "device";
  return now.time === held.time ? "same" : "time";
}
