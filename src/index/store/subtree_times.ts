/**
 * What lies below each held folder, cached on its record (contract §18: the index may keep
 * counts per folder so that an answer costs what the answer costs): the bounds of the
 * modification and birth times at and below it, the same of the files alone (a files-only
 * question matches no folder, so a folder whose own time is recent but whose files are all
 * old is skipped by it), and how many files and listings a walk would meet there. A focused
 * answer skips a folder whose times all lie outside its window (focus.ts) and counts what it
 * skipped.
 *
 * A bound is unknown (`NaN`) while anything below is: a listing not held, a stat not read,
 * a birth time the system does not give. Bounds are made when first asked and cached until
 * something at or below the folder changes (`FolderRecords.touch`, called by every change
 * to a run or a stat): made again, they cost the runs of the folders that changed and of
 * those above them.
 *
 * @module
 */
import { DIR, UNKNOWN_TIME } from "./entry_columns.ts";
import { LISTED } from "./folder_records.ts";
import type { FolderTree } from "./folder_tree.ts";

/** Makes sure record `folder`'s bounds and counts are cached (folder_records.ts). */
export function boundBelow(tree: FolderTree, folder: number): void {
  const rec = tree.folders;
  if (rec.bounded[folder]) return;
  // All entries' times, and the files' alone (a folder's own time left out).
  const all = new Bounds();
  const files = new Bounds();
  let fileCount = 0, listings = 1;
  if (rec.state[folder] !== LISTED) {
    all.unknown(); // not held: nothing below is known
    files.unknown();
    listings = 0;
  } else {
    const cols = tree.columns;
    const end = rec.first[folder]! + rec.count[folder]!;
    for (let e = rec.first[folder]!; e < end; e++) {
      const mtime = cols.mtime[e]!; // unknown until stat'ed (its birth time is then too)
      const birth = Number.isNaN(mtime) ? UNKNOWN_TIME : cols.birth[e]!;
      all.take(mtime, birth);
      if (!(cols.kind[e]! & DIR)) {
        files.take(mtime, birth);
        fileCount++;
        continue;
      }
      const sub = cols.sub[e]!;
      if (sub < 0) { // never looked into
        all.unknown();
        files.unknown();
        continue;
      }
      boundBelow(tree, sub);
      all.merge(rec.mtimeLo[sub]!, rec.mtimeHi[sub]!, rec.birthLo[sub]!, rec.birthHi[sub]!);
      files.merge(
        rec.fileMtimeLo[sub]!,
        rec.fileMtimeHi[sub]!,
        rec.fileBirthLo[sub]!,
        rec.fileBirthHi[sub]!,
      );
      fileCount += rec.files[sub]!;
      listings += rec.listings[sub]!;
    }
  }
  rec.mtimeLo[folder] = all.mtimeLo;
  rec.mtimeHi[folder] = all.mtimeHi;
  rec.birthLo[folder] = all.birthLo;
  rec.birthHi[folder] = all.birthHi;
  rec.fileMtimeLo[folder] = files.mtimeLo;
  rec.fileMtimeHi[folder] = files.mtimeHi;
  rec.fileBirthLo[folder] = files.birthLo;
  rec.fileBirthHi[folder] = files.birthHi;
  rec.files[folder] = fileCount;
  rec.listings[folder] = listings;
  rec.bounded[folder] = 1;
}

/** The bounds of some times: an unknown one (NaN), once met, stays. */
class Bounds {
  mtimeLo = Infinity;
  mtimeHi = -Infinity;
  birthLo = Infinity;
  birthHi = -Infinity;

  take(mtime: number, birth: number): void {
    this.merge(mtime, mtime, birth, birth);
  }

  /** Takes another set's bounds (an empty one's are `Infinity`, `-Infinity`: no change). */
  merge(mtimeLo: number, mtimeHi: number, birthLo: number, birthHi: number): void {
    this.mtimeLo = Math.min(this.mtimeLo, mtimeLo);
    this.mtimeHi = Math.max(this.mtimeHi, mtimeHi);
    this.birthLo = Math.min(this.birthLo, birthLo);
    this.birthHi = Math.max(this.birthHi, birthHi);
  }

  unknown(): void {
    this.take(UNKNOWN_TIME, UNKNOWN_TIME);
  }
}
