/**
 * A root's files in order of their modification times (contract §18, §26; issue 59): the
 * exact count of a windowed question's matches without visiting a folder. Everything
 * (voidtools) and plocate keep sorted arrays so that a window is a range: its count is two
 * binary searches. Here the order is a snapshot (time_snapshot.ts), made when a question
 * first needs it: each file's time and its folder record, sorted by time (12 bytes a file),
 * and each record's depth and whether it lies inside a version-control folder (contract
 * §27). What changed since is read from the records the tree marks as they change
 * (folder_records.ts): a changed record's files in the snapshot are passed over in the
 * range, and its run as it is now is counted instead; at {@linkcode MERGE_AT} changed
 * records they are merged into the snapshot, and past `REMAKE_AT`, or after the tree was
 * cleared, the snapshot is made whole again.
 *
 * It counts what a walk from the root counts as matches of a files-only window with no
 * glob, size bound, exclude or ignore file (focus.ts `exactOf`): the files inside the
 * window in listings read at most `maxDepth` deep, those inside version-control folders
 * apart; and it names the folders a time-ordered page can come from, a glob or size bound
 * included ({@linkcode pageFolders}). It says nothing (`null`) while anything below the
 * root is not known (a listing not held, a stat not read: the root's bounds,
 * subtree_times.ts) or a name could not be decoded.
 *
 * @module
 */
import { UNDECODED } from "../../walk/mod.ts";
import { placeOf, relativePath } from "./record_place.ts";
import { mergedSnapshot, snapshotOf, type TimeSnapshot } from "./time_snapshot.ts";
import { boundBelow, DIR, firstAtOrAbove, type FolderTree, infoOf } from "../store/mod.ts";

/**
 * Changed records read with the snapshot at each question; at this many they are merged
 * into it (time_snapshot.ts: 27-45 ms on 1.8 million files, against 250 ms made whole);
 * past `REMAKE_AT` (a burst between two questions) it is made whole again.
 */
export const MERGE_AT = 64;

/** The matches inside a window, and those of them inside version-control folders. */
export interface WindowCount {
  matches: number;
  vcs: number;
}

const orders = new WeakMap<FolderTree, TimeOrder>();

/**
 * The matches of the files-only window `[from, to)` of modification times, counted as a
 * walk from the root reading listings at most `maxDepth` deep counts them, with those
 * inside version-control folders apart when `vcsLeftOut`; `null` when the index alone
 * cannot tell.
 */
export function windowCount(
  tree: FolderTree,
  window: OrderWindow,
): WindowCount | null {
  return orderOf(tree)?.count(window) ?? null;
}

/**
 * Whether {@linkcode windowCount} would count (the order made, or merged, if need be): what
 * a scan asks before it, to note its drops rather than count them, without a pass over the
 * window's range.
 */
export function windowCountable(tree: FolderTree): boolean {
  return orderOf(tree)?.countable() ?? false;
}

/**
 * Brings the tree's time order up to date ahead of the next question, if a question made
 * one (a tree nobody asked of keeps none): merged once its changed records reach the merge's
 * count, made whole again once its marks no longer say what changed (a clear, a burst past
 * `REMAKE_AT`). Run in a quiet turn (quiet_turn.ts), so that questions find it done.
 */
export function keepOrder(tree: FolderTree): void {
  const order = orders.get(tree);
  if (order?.current() && tree.folders.changes!.length < order.mergeAt) return;
  if (order) orderOf(tree);
}

/**
 * The tree's time order, made again (or merged) if need be; `null` while anything below the
 * root is not known.
 */
function orderOf(tree: FolderTree): TimeOrder | null {
  boundBelow(tree, 0);
  if (Number.isNaN(tree.folders.fileMtimeLo[0]!)) return null; // something below not known
  let order = orders.get(tree);
  if (!order?.current()) orders.set(tree, order = new TimeOrder(tree));
  else if (tree.folders.changes!.length >= order.mergeAt) order.merge();
  return order;
}

/**
 * The folders a time-ordered page of `window` can come from (time_order.ts's snapshot): those
 * holding its `k` first matches in the order (`desc`: newest first; a file is a match when
 * `wants` it too) and every one tied with the last of them, each folder changed since the
 * snapshot, and the folders above them; a match at `tie` (a cursor's time: some of them
 * lie before it) is kept but not counted among the `k`. With them the `edge`: the time of
 * the `k`-th of those matches (`NaN` when there are fewer), past which nothing can be on the
 * page (a folder changed since only adds matches before it). `null` when {@linkcode
 * windowCount} would be.
 */
export function pageFolders(
  tree: FolderTree,
  window: OrderWindow,
  page: PageAsk,
): PageFolders | null {
  const order = orderOf(tree);
  return order === null || order.undecoded ? null : order.folders(window, page);
}

/** The folder records a page can come from (1), and the time past which it cannot. */
export interface PageFolders {
  only: Uint8Array;
  edge: number;
}

/**
 * Which end of a window a page is taken from (`desc`: the newest), how many matches it
 * needs (`k`), the cursor's time (`tie`: `NaN` for none), and what else a file must be to
 * match (a glob, a size bound), given its root-relative path and its held stat.
 */
export interface PageAsk {
  desc: boolean;
  k: number;
  tie: number;
  wants: ((path: string, info: Deno.FileInfo) => boolean) | null;
}

/** A window of modification times, and how a walk from the root reads it. */
export interface OrderWindow {
  from: number;
  to: number;
  /** Listings read at most this deep (the root's is 1). */
  maxDepth: number;
  /** Whether files inside version-control folders are left out (contract §27). */
  vcsLeftOut: boolean;
}

/** Bytes the tree's time order takes outside the heap (0 until a question made it). */
export function timeOrderBytes(tree: FolderTree): number {
  return orders.get(tree)?.bytes ?? 0;
}

/** A tree's files in time order: a snapshot, read with what changed since. */
class TimeOrder {
  readonly #tree: FolderTree;
  #snap: TimeSnapshot;

  constructor(tree: FolderTree) {
    this.#tree = tree;
    this.#snap = snapshotOf(tree);
  }

  /** Whether a name could not be decoded (the order then says nothing). */
  get undecoded(): boolean {
    return this.#snap.undecoded;
  }

  /**
   * How many changed records are merged (a merge costs a pass over the files): `MERGE_AT`,
   * or fewer in a small tree (one for every 64 files, at least 4).
   */
  get mergeAt(): number {
    return Math.min(MERGE_AT, Math.max(4, this.#snap.times.length >> 6));
  }

  /** Takes the records changed since into the snapshot (time_snapshot.ts). */
  merge(): void {
    this.#snap = mergedSnapshot(this.#tree, this.#snap);
  }

  /** Bytes the snapshot takes. */
  get bytes(): number {
    const { times, records, depth, vcs } = this.#snap;
    return times.byteLength + records.byteLength + depth.byteLength + vcs.byteLength;
  }

  /** Whether the tree's marks still describe what changed since the snapshot. */
  current(): boolean {
    const rec = this.#tree.folders;
    return rec.cleared === this.#snap.cleared && rec.changes !== null;
  }

  /** No name in the snapshot, nor in a run changed since, could not be decoded. */
  countable(): boolean {
    if (this.#snap.undecoded) return false;
    const tree = this.#tree;
    return tree.folders.changes!.every((f) =>
      !tree.listed(f) || !tree.run(f).names.includes(UNDECODED)
    );
  }

  folders(
    { from, to, maxDepth, vcsLeftOut }: OrderWindow,
    { desc, k, tie, wants }: PageAsk,
  ): PageFolders {
    const rec = this.#tree.folders;
    const only = new Uint8Array(rec.length);
    only[0] = 1;
    const mark = (f: number) => {
      for (let c = f; c > 0 && !only[c]; c = rec.parent[c]!) only[c] = 1;
    };
    const { times, records, depth, vcs } = this.#snap;
    const changed = rec.changed;
    const lo = firstAtOrAbove(times, from), hi = firstAtOrAbove(times, to);
    let found = 0, edge = NaN;
    // The files of one folder tied on time lie together (a stable sort): wanted once.
    let lastF = -1, lastT = NaN;
    for (let n = 0; n < hi - lo; n++) {
      const i = desc ? hi - 1 - n : lo + n;
      const f = records[i]!, t = times[i]!;
      if (changed[f] || depth[f]! > maxDepth || (vcsLeftOut && vcs[f])) continue;
      if (found >= k && t !== edge) break; // past the k-th and those tied with it
      if (wants !== null && f === lastF && t === lastT) continue; // counted with the first
      lastF = f;
      lastT = t;
      const matches = wants === null ? 1 : this.#wanted(f, t, wants);
      if (matches === 0) continue;
      mark(f);
      if (t !== tie && (found += matches) >= k && Number.isNaN(edge)) edge = t;
    }
    for (const f of rec.changes!) if (this.#tree.listed(f)) mark(f);
    return { only, edge };
  }

  /**
   * How many files of record `f` with time `t` `wants`, all counted at the first of their
   * places in the snapshot (the others are passed over).
   */
  #wanted(f: number, t: number, wants: (path: string, info: Deno.FileInfo) => boolean): number {
    const tree = this.#tree;
    const cols = tree.columns;
    const { first, count } = tree.run(f);
    let n = 0;
    let dir: string | null = null;
    for (let e = first; e < first + count; e++) {
      if (cols.kind[e]! & DIR || cols.mtime[e] !== t) continue;
      dir ??= relativePath(tree, f);
      const name = tree.nameOf(f, e);
      if (wants(dir === "" ? name : `${dir}/${name}`, infoOf(cols, e))) n++;
    }
    return n;
  }

  count({ from, to, maxDepth, vcsLeftOut }: OrderWindow): WindowCount | null {
    if (!this.countable()) return null;
    const tree = this.#tree;
    const rec = tree.folders;
    const changed = rec.changed;
    const out: WindowCount = { matches: 0, vcs: 0 };
    const { times, records, depth, vcs, deepest, vcsFiles } = this.#snap;
    const n = times.length;
    if (
      rec.changes!.length === 0 && maxDepth >= deepest && n > 0 && from <= times[0]! &&
      to > times[n - 1]!
    ) { // every file, as at the snapshot: no pass over them
      const left = vcsLeftOut ? vcsFiles : 0;
      return { matches: n - left, vcs: left };
    }
    const end = firstAtOrAbove(times, to);
    for (let i = firstAtOrAbove(times, from); i < end; i++) {
      const f = records[i]!;
      if (changed[f] || depth[f]! > maxDepth) continue;
      if (vcsLeftOut && vcs[f]) out.vcs++;
      else out.matches++;
    }
    const cols = tree.columns;
    for (const f of rec.changes!) {
      if (!tree.listed(f)) continue;
      const { first, count } = tree.run(f);
      const place = placeOf(tree, f);
      if (place.depth > maxDepth) continue;
      for (let e = first; e < first + count; e++) {
        const t = cols.mtime[e]!;
        if (cols.kind[e]! & DIR || !(t >= from && t < to)) continue;
        if (vcsLeftOut && place.vcs) out.vcs++;
        else out.matches++;
      }
    }
    return out;
  }
}
