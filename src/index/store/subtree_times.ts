/**
 * What lies below each held folder, cached on its record (contract §18: the index may keep
 * counts per folder so that an answer costs what the answer costs): the bounds of the
 * modification and birth times at and below it, and how many files and listings a walk
 * would meet there. A focused answer skips a folder whose times all lie outside its window
 * (focus.ts) and counts what it skipped.
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
  let mtimeLo = Infinity, mtimeHi = -Infinity, birthLo = Infinity, birthHi = -Infinity;
  let files = 0, listings = 1;
  if (rec.state[folder] !== LISTED) {
    mtimeLo =
      mtimeHi =
      birthLo =
      birthHi =
        UNKNOWN_TIME; // not held: nothing below is known
    listings = 0;
  } else {
    const cols = tree.columns;
    const end = rec.first[folder]! + rec.count[folder]!;
    for (let e = rec.first[folder]!; e < end; e++) {
      const mtime = cols.mtime[e]!; // unknown until stat'ed (its birth time is then too)
      const birth = Number.isNaN(mtime) ? UNKNOWN_TIME : cols.birth[e]!;
      mtimeLo = Math.min(mtimeLo, mtime); // NaN, once met, stays
      mtimeHi = Math.max(mtimeHi, mtime);
      birthLo = Math.min(birthLo, birth);
      birthHi = Math.max(birthHi, birth);
      if (!(cols.kind[e]! & DIR)) {
        files++;
        continue;
      }
      const sub = cols.sub[e]!;
      if (sub < 0) { // never looked into
        mtimeLo =
          mtimeHi =
          birthLo =
          birthHi =
            UNKNOWN_TIME;
        continue;
      }
      boundBelow(tree, sub);
      mtimeLo = Math.min(mtimeLo, rec.mtimeLo[sub]!);
      mtimeHi = Math.max(mtimeHi, rec.mtimeHi[sub]!);
      birthLo = Math.min(birthLo, rec.birthLo[sub]!);
      birthHi = Math.max(birthHi, rec.birthHi[sub]!);
      files += rec.files[sub]!;
      listings += rec.listings[sub]!;
    }
  }
  rec.mtimeLo[folder] = mtimeLo;
  rec.mtimeHi[folder] = mtimeHi;
  rec.birthLo[folder] = birthLo;
  rec.birthHi[folder] = birthHi;
  rec.files[folder] = files;
  rec.listings[folder] = listings;
  rec.bounded[folder] = 1;
}
