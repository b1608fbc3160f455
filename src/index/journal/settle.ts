/**
 * What a root's journal reads again before it answers a question or gives a clock
 * (contract §24): the runtime watches a folder that appeared only after it has passed on
 * the event that made it (once the run of events it read it in ends: watch_lag.ts), so
 * what was put in it meanwhile raised no event; and a folder whose listing events changed
 * may have lost an entry by a move whose events did not all come.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import { hostRules } from "../../security/mod.ts";
import { NEW_FOLDER_MAX_ENTRIES, readBelow } from "./batch.ts";
import { lstatImage, sameImage } from "./image.ts";
import type { Touch } from "./journal.ts";
import type { Known } from "./known.ts";

/**
 * The touches that bring what the journal knows of `appeared` and `listed` (absolute
 * folders) up to the disk: for each folder that appeared, what it holds that the journal
 * does not know was made in it, what the journal knows otherwise changed, and what it
 * was thought to hold and is not there went; for each folder listed again, what it is
 * thought to hold and is not there went (with what was below it).
 */
export function settleTouches(
  known: Known,
  disk: FsPort,
  appeared: ReadonlySet<string>,
  listed: ReadonlySet<string>,
): Touch[] {
  const lstat = (path: string) => disk.lstat(path);
  const touches: Touch[] = [];
  const sep = hostRules.sep;
  for (const folder of listed) {
    if (appeared.has(folder)) continue; // read whole below
    let names: Set<string>;
    try {
      names = new Set([...disk.readDir(folder)].map((e) => e.name));
    } catch {
      continue; // gone: its own event says so
    }
    for (const name of known.children(folder)) {
      const path = folder + sep + name;
      if (names.has(name)) continue;
      // Itself, if thought there, and what is thought to be below it (even once it is known
      // gone: what was below a folder whose move came apart may be thought there still).
      const thought = known.image(path) === null ? [] : [path];
      for (const gone of [...thought, ...known.below(path, false, true)]) {
        if (lstatImage(lstat, gone) !== null) continue;
        touches.push(known.touch(gone, null));
      }
    }
  }
  // Outer folders first: one read whole takes in each folder below it that appeared too.
  const readWhole = new Set<string>();
  for (const folder of [...appeared].sort((a, b) => a.length - b.length)) {
    if (readWhole.has(folder)) continue;
    const below = readBelow(disk, folder);
    const whole = below.length < NEW_FOLDER_MAX_ENTRIES; // each folder in it read below
    if (whole) { for (const path of below) readWhole.add(path); }
    const there = new Set(below);
    for (const path of there) {
      const before = known.image(path);
      if (before === "unknown") continue;
      const after = lstatImage(lstat, path);
      if (after === null || (before !== null && sameImage(before, after))) continue;
      touches.push({ path: known.rel(path), before, after, written: false });
    }
    for (const path of known.below(folder)) {
      if (there.has(path) || lstatImage(lstat, path) !== null) continue;
      touches.push(known.touch(path, null));
    }
  }
  return touches;
}
