/**
 * A root's files in time order as at one moment (time_order.ts reads it with what changed
 * since): each file's modification time and folder record sorted by time (and apart, the
 * same of its folders: each one's own time and the record of the listing it is in), and, once a
 * question on created times asked for them, the same of each file's birth time (the files
 * the system gave one: contract §7), each record's depth and whether it lies inside a
 * version-control folder (contract §27), and what the order needs at once (the deepest
 * listing, the files inside version-control folders, an undecodable name). Made whole
 * ({@linkcode snapshotOf}: a radix sort of every file), or from the one before and the
 * records changed since ({@linkcode mergedSnapshot}: their files taken out in one pass,
 * their runs as they are now sorted apart and merged in), and then the tree's marks begin
 * again (`FolderRecords.markChanges`). Both times are made and merged together, so that one
 * set of marks says what changed since either.
 *
 * @module
 */
import { UNDECODED } from "../../walk/mod.ts";
import { DIR, type FolderTree, sortByTime } from "../store/mod.ts";
import { placeOf } from "./record_place.ts";

/** Changed records the tree lists for the order; past them it is made whole again. */
export const REMAKE_AT = 4096;

/** A root's files (or folders) with a time of one field, in order of it. */
export interface FieldOrder {
  /** The times, ascending, and each one's folder record (the listing it is in). */
  times: Float64Array;
  records: Int32Array;
  /** Of them, those inside version-control folders. */
  vcsFiles: number;
}

/** One time field's order of the files, and apart of the folders. */
export interface FieldOrders {
  files: FieldOrder;
  folders: FieldOrder;
}

/** One snapshot of a tree's files in time order. */
export interface TimeSnapshot {
  /** The tree's count of clears when it was made (a clear voids it). */
  cleared: number;
  /** Every file and folder by its modification time. */
  mtime: FieldOrders;
  /** Those with a birth time by it (contract §7), or `null` when none was asked for. */
  birth: FieldOrders | null;
  /** Per record: the depth its listing is read at (the root's is 1), and whether inside VCS. */
  depth: Int32Array;
  vcs: Uint8Array;
  /** Whether a name could not be decoded (the order then says nothing). */
  undecoded: boolean;
  /** The deepest listing. */
  deepest: number;
}

/** The tree's files in time order now, made whole (with their birth times when `births`). */
export function snapshotOf(tree: FolderTree, births: boolean): TimeSnapshot {
  const rec = tree.folders;
  const snap = blank(tree, rec.cleared, new Int32Array(rec.length), new Uint8Array(rec.length));
  const listed: number[] = [];
  for (let f = 0; f < rec.length; f++) if (tree.listed(f)) listed.push(f);
  placed(tree, listed, snap);
  snap.mtime = ordersOf(tree, listed, snap, tree.columns.mtime);
  if (births) snap.birth = ordersOf(tree, listed, snap, tree.columns.birth);
  rec.markChanges(REMAKE_AT);
  return snap;
}

/**
 * The tree's files in time order now, from `old` and the records changed since (the tree's
 * marks): their files in `old` left out, their runs as they are now merged in.
 */
export function mergedSnapshot(tree: FolderTree, old: TimeSnapshot): TimeSnapshot {
  const rec = tree.folders;
  const depth = new Int32Array(rec.length);
  depth.set(old.depth);
  const vcs = new Uint8Array(rec.length);
  vcs.set(old.vcs);
  const snap = blank(tree, old.cleared, depth, vcs);
  snap.undecoded = old.undecoded;
  snap.deepest = old.deepest;
  const listed = rec.changes!.filter((f) => tree.listed(f));
  placed(tree, listed, snap);
  const cols = tree.columns;
  const both = (was: FieldOrders, added: FieldOrders): FieldOrders => ({
    files: merged(rec.changed, snap, was.files, added.files),
    folders: merged(rec.changed, snap, was.folders, added.folders),
  });
  snap.mtime = both(old.mtime, ordersOf(tree, listed, snap, cols.mtime));
  if (old.birth) snap.birth = both(old.birth, ordersOf(tree, listed, snap, cols.birth));
  rec.markChanges(REMAKE_AT);
  return snap;
}

/** `old`'s files of records not `changed`, and `added`, in one order. */
function merged(changed: Uint8Array, snap: TimeSnapshot, old: FieldOrder, added: FieldOrder) {
  const n = old.times.length;
  let kept = 0, vcsFiles = added.vcsFiles;
  for (let i = 0; i < n; i++) {
    const f = old.records[i]!;
    if (changed[f]) continue;
    kept++;
    if (snap.vcs[f]) vcsFiles++;
  }
  const m = added.times.length;
  const times = new Float64Array(kept + m);
  const records = new Int32Array(kept + m);
  // The old first on a tie: the files of one folder tied on time stay together.
  for (let i = 0, j = 0, o = 0; o < times.length; o++) {
    while (i < n && changed[old.records[i]!]) i++;
    if (j >= m || (i < n && old.times[i]! <= added.times[j]!)) {
      times[o] = old.times[i]!;
      records[o] = old.records[i++]!;
    } else {
      times[o] = added.times[j]!;
      records[o] = added.records[j++]!;
    }
  }
  return { times, records, vcsFiles };
}

/** A snapshot with no files yet. */
function blank(
  tree: FolderTree,
  cleared: number,
  depth: Int32Array,
  vcs: Uint8Array,
): TimeSnapshot {
  const none = { times: new Float64Array(), records: new Int32Array(), vcsFiles: 0 };
  return {
    cleared,
    mtime: { files: none, folders: none },
    birth: null,
    depth,
    vcs,
    undecoded: false,
    deepest: tree.listed(0) ? 1 : 0,
  };
}

/** Notes each of the `listed` records' place in `snap`, and what it says at once. */
function placed(tree: FolderTree, listed: number[], snap: TimeSnapshot): void {
  for (const f of listed) {
    const place = placeOf(tree, f);
    snap.depth[f] = place.depth;
    snap.vcs[f] = place.vcs ? 1 : 0;
    snap.deepest = Math.max(snap.deepest, place.depth);
    snap.undecoded ||= tree.run(f).names.includes(UNDECODED);
  }
}

/** The files and, apart, the folders of the `listed` records by `column`, sorted. */
function ordersOf(
  tree: FolderTree,
  listed: number[],
  snap: TimeSnapshot,
  column: Float64Array,
): FieldOrders {
  return {
    files: sorted(entriesOf(tree, listed, snap, column, 0)),
    folders: sorted(entriesOf(tree, listed, snap, column, DIR)),
  };
}

/**
 * The files (`dir` 0) or folders (`dir` DIR) of the `listed` records with a time in
 * `column` (an unknown one, NaN: none), their times and records in record order, and how
 * many lie inside version-control folders.
 */
function entriesOf(
  tree: FolderTree,
  listed: number[],
  snap: TimeSnapshot,
  column: Float64Array,
  dir: number,
): FieldOrder {
  const kind = tree.columns.kind;
  let n = 0, vcsFiles = 0;
  for (const f of listed) {
    const { first, count } = tree.run(f);
    let here = 0;
    for (let e = first; e < first + count; e++) {
      if ((kind[e]! & DIR) === dir && !Number.isNaN(column[e]!)) here++;
    }
    n += here;
    if (snap.vcs[f]) vcsFiles += here;
  }
  const times = new Float64Array(n);
  const records = new Int32Array(n);
  let i = 0;
  for (const f of listed) {
    const { first, count } = tree.run(f);
    for (let e = first; e < first + count; e++) {
      if ((kind[e]! & DIR) !== dir || Number.isNaN(column[e]!)) continue;
      times[i] = column[e]!;
      records[i++] = f;
    }
  }
  return { times, records, vcsFiles };
}

/** `files` sorted by time (the order of ties kept). */
function sorted(files: FieldOrder): FieldOrder {
  const [times, records] = sortByTime(files.times, files.records);
  return { times, records, vcsFiles: files.vcsFiles };
}
