/**
 * What the journal keeps of one entry at one position (contract §24): its kind, size and
 * times as one `lstat` gave them, or `null` when it was not there; what one batch did to
 * one entry, as a journal takes it, and the net change of one entry between two
 * positions, as a journal gives it.
 *
 * @module
 */
import { birthTime, DIR, kindOf } from "../store/mod.ts";

/** An entry as one `lstat` saw it; `birth` is `NaN` when unknown (contract §7). */
export interface Seen {
  kind: number;
  size: number;
  mtime: number;
  birth: number;
  /** Its inode (another file put in its place has another); absent when not known. */
  ino?: number | null;
}

/** An entry at one position: as seen, or `null` (absent). */
export type Image = Seen | null;

/** What one batch did to one entry. */
export interface Touch {
  /** Root-relative, `/`-separated. */
  path: string;
  /** As the index held it before the batch; "unknown" when it held no stat of it. */
  before: Image | "unknown";
  /** Its kind before the batch when `before` is "unknown" but the kind is known. */
  kind?: number;
  after: Image;
  written: boolean;
  from?: string;
}

/** The net change of one entry between two positions (contract §24). */
export interface NetChange {
  path: string;
  change: "created" | "modified" | "removed" | "renamed";
  /** Its image at the later position; for a removed entry, at the earlier one. */
  image: Image | "unknown";
  /** Its kind (of that image), where known: an image not known may still know it. */
  kind: number | null;
  previousPath?: string;
}

/** The image of an `lstat` result. */
export function imageOf(info: Deno.FileInfo): Seen {
  return {
    kind: kindOf(info),
    size: info.size,
    mtime: info.mtime?.getTime() ?? NaN,
    birth: birthTime(info),
    ino: info.ino,
  };
}

/**
 * Whether two images say the same: both absent, or the same kind, size (a file's: a
 * folder's has no size, contract §22) and times, and the same inode where both know it
 * (an editor's save puts another file in its place).
 */
export function sameImage(a: Image, b: Image): boolean {
  if (a === null || b === null) return a === b;
  return a.kind === b.kind && (a.size === b.size || (a.kind & DIR) !== 0) &&
    Object.is(a.mtime, b.mtime) && Object.is(a.birth, b.birth) &&
    (a.ino == null || b.ino == null || a.ino === b.ino);
}

/** What `lstat` says of `abs` now: its image, or `null` when it cannot be read (gone). */
export function lstatImage(lstat: (abs: string) => Deno.FileInfo, abs: string): Image {
  try {
    return imageOf(lstat(abs));
  } catch {
    return null; // gone, or no longer readable by the server's user: a walk skips it too
  }
}
