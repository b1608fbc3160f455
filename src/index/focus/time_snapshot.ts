/**
 * A root's files in time order as at one moment (time_order.ts reads it with what changed
 * since): each file's modification time and folder record sorted by time, each record's
 * depth and whether it lies inside a version-control folder (contract §27), and what the
 * order needs at once (the deepest listing, the files inside version-control folders, an
 * undecodable name). Made whole ({@linkcode snapshotOf}: a radix sort of every file), or
 * from the one before and the records changed since ({@linkcode mergedSnapshot}: their
 * files taken out in one pass, their runs as they are now sorted apart and merged in), and
 * then the tree's marks begin again (`FolderRecords.markChanges`).
 *
 * @module
 */
import { UNDECODED } from "../../walk/mod.ts";
import { DIR, type FolderTree, sortByTime } from "../store/mod.ts";
import { placeOf } from "./record_place.ts";

/** Changed records the tree lists for the order; past them it is made whole again. */
export const REMAKE_AT = 4096;

/** One snapshot of a tree's files in time order. */
export interface TimeSnapshot {
  /** The tree's count of clears when it was made (a clear voids it). */
  cleared: number;
  /** The files' times, ascending, and each one's folder record. */
  times: Float64Array;
  records: Int32Array;
  /** Per record: the depth its listing is read at (the root's is 1), and whether inside VCS. */
  depth: Int32Array;
  vcs: Uint8Array;
  /** Whether a name could not be decoded (the order then says nothing). */
  undecoded: boolean;
  /** The deepest listing, and the files inside version-control folders. */
  deepest: number;
  vcsFiles: number;
}

/** The tree's files in time order now, made whole. */
export function snapshotOf(tree: FolderTree): TimeSnapshot {
  const rec = tree.folders;
  const snap = blank(tree, rec.cleared, new Int32Array(rec.length), new Uint8Array(rec.length));
  const listed: number[] = [];
  for (let f = 0; f < rec.length; f++) if (tree.listed(f)) listed.push(f);
  const [times, owners] = filesOf(tree, listed, snap);
  [snap.times, snap.records] = sortByTime(times, owners);
  rec.markChanges(REMAKE_AT);
  return snap;
}

/**
 * The tree's files in time order now, from `old` and the records changed since (the tree's
 * marks): their files in `old` left out, their runs as they are now merged in.
 */
export function mergedSnapshot(tree: FolderTree, old: TimeSnapshot): TimeSnapshot {
  const rec = tree.folders;
  const changed = rec.changed;
  const depth = new Int32Array(rec.length);
  depth.set(old.depth);
  const vcs = new Uint8Array(rec.length);
  vcs.set(old.vcs);
  const snap = blank(tree, old.cleared, depth, vcs);
  snap.undecoded = old.undecoded;
  snap.deepest = old.deepest;
  snap.vcsFiles = old.vcsFiles;
  const n = old.times.length;
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const f = old.records[i]!;
    if (!changed[f]) kept++;
    else if (old.vcs[f]) snap.vcsFiles--; // the folder's files then
  }
  const [added, owners] = sortByTime(
    ...filesOf(tree, rec.changes!.filter((f) => tree.listed(f)), snap),
  );
  const times = new Float64Array(kept + added.length);
  const records = new Int32Array(kept + added.length);
  // The old first on a tie: the files of one folder tied on time stay together.
  for (let i = 0, j = 0, o = 0; o < times.length; o++) {
    while (i < n && changed[old.records[i]!]) i++;
    if (j >= added.length || (i < n && old.times[i]! <= added[j]!)) {
      times[o] = old.times[i]!;
      records[o] = old.records[i++]!;
    } else {
      times[o] = added[j]!;
      records[o] = owners[j++]!;
    }
  }
  snap.times = times;
  snap.records = records;
  rec.markChanges(REMAKE_AT);
  return snap;
}

/** A snapshot with no files yet. */
function blank(
  tree: FolderTree,
  cleared: number,
  depth: Int32Array,
  vcs: Uint8Array,
): TimeSnapshot {
  return {
    cleared,
    times: new Float64Array(),
    records: new Int32Array(),
    depth,
    vcs,
    undecoded: false,
    deepest: tree.listed(0) ? 1 : 0,
    vcsFiles: 0,
  };
}

/**
 * The files of the `listed` records, their times and records, in record order (each
 * record's place noted in `snap`, and what it says at once).
 */
function filesOf(
  tree: FolderTree,
  listed: number[],
  snap: TimeSnapshot,
): [Float64Array, Int32Array] {
  const cols = tree.columns;
  let files = 0;
  for (const f of listed) {
    const place = placeOf(tree, f);
    snap.depth[f] = place.depth;
    snap.vcs[f] = place.vcs ? 1 : 0;
    snap.deepest = Math.max(snap.deepest, place.depth);
    const { first, count, names } = tree.run(f);
    snap.undecoded ||= names.includes(UNDECODED);
    let here = 0;
    for (let e = first; e < first + count; e++) if (!(cols.kind[e]! & DIR)) here++;
    files += here;
    if (place.vcs) snap.vcsFiles += here;
  }
  const times = new Float64Array(files);
  const owners = new Int32Array(files);
  let i = 0;
  for (const f of listed) {
    const { first, count } = tree.run(f);
    for (let e = first; e < first + count; e++) {
      if (cols.kind[e]! & DIR) continue;
      times[i] = cols.mtime[e]!;
      owners[i++] = f;
    }
  }
  return [times, owners];
}
