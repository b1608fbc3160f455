/**
 * A root's files, and apart its folders, in order of their modification times, and of
 * their birth times once a question on created times asked (contract §18, §26; issue 59):
 * the exact count of a windowed question's matches without visiting a folder. Everything
 * (voidtools) and plocate keep sorted arrays so that a window is a range: its count is two
 * binary searches. Here the order is a snapshot (time_snapshot.ts), made when a question
 * first needs it: each entry's time and its folder record (the listing it is in), sorted by
 * time (12 bytes an entry), and each record's depth and whether it lies inside a
 * version-control folder (contract §27). What changed since is read from the records the
 * tree marks as they change (folder_records.ts): a changed record's entries in the snapshot
 * are passed over in the range, and its run as it is now is counted instead; at
 * {@linkcode MERGE_AT} changed records they are merged into the snapshot, and past
 * `REMAKE_AT`, or after the tree was cleared, the snapshot is made whole again.
 *
 * It counts what a walk from the root (or a folder below it: order_scope.ts) counts as
 * matches of a window of files, folders (by their own times) or both, with no glob,
 * size bound, exclude or ignore file (focus.ts `exactOf`), of either time (an entry with no
 * birth time is no match of a created window: contract §7): those inside the window in
 * listings read at most `maxDepth` deep, those inside version-control folders apart
 * (order_count.ts); and it names the folders a time-ordered page can come from, a glob or
 * size bound included (order_page.ts). It says nothing (`null`) while anything below the
 * root is not known (a listing not held, a stat not read: the root's bounds,
 * subtree_times.ts) or a name could not be decoded.
 *
 * @module
 */
import { UNDECODED } from "../../walk/mod.ts";
import {
  type FieldOrder,
  type FieldOrders,
  mergedSnapshot,
  snapshotOf,
  type TimeSnapshot,
} from "./time_snapshot.ts";
import type { OrderWindow, PageAsk, PageFolders, WindowCount } from "./order_window.ts";
import { countOf } from "./order_count.ts";
import { pageFoldersOf } from "./order_page.ts";
import { scopeOf } from "./order_scope.ts";
import { boundBelow, type FolderTree } from "../store/mod.ts";

/**
 * Changed records read with the snapshot at each question; at this many they are merged
 * into it (time_snapshot.ts: 27-45 ms on 1.8 million files, against 250 ms made whole);
 * past `REMAKE_AT` (a burst between two questions) it is made whole again.
 */
export const MERGE_AT = 64;

const orders = new WeakMap<FolderTree, TimeOrder>();

/**
 * The matches of `window` (`[from, to)` of one time field, of files, folders or both),
 * counted as a walk from its start reading listings at most `maxDepth` deep counts them,
 * with those inside version-control folders apart when `vcsLeftOut`; `null` when the index
 * alone cannot tell, or the start has no scope (order_scope.ts).
 */
export function windowCount(
  tree: FolderTree,
  window: OrderWindow,
): WindowCount | null {
  return orderFor(tree, window)?.count(window) ?? null;
}

/**
 * Whether {@linkcode windowCount} would count (the order made, or merged, if need be): what
 * a scan asks before it, to note its drops rather than count them, without a pass over the
 * window's range.
 */
export function windowCountable(tree: FolderTree, window: OrderWindow): boolean {
  return orderFor(tree, window)?.countsFor(window) ?? false;
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
  if (order) orderOf(tree, false);
}

/**
 * The tree's time order for `window`: `null` also while a folder's own time below the root
 * is not known, when folders match too.
 */
function orderFor(tree: FolderTree, window: OrderWindow): TimeOrder | null {
  const order = orderOf(tree, window.created);
  return order && window.folders && Number.isNaN(tree.folders.mtimeLo[0]!) ? null : order;
}

/**
 * The tree's time order, made again (or merged) if need be, with birth times when `created`
 * asks for them (and from then on); `null` while anything below the root is not known.
 */
function orderOf(tree: FolderTree, created: boolean): TimeOrder | null {
  boundBelow(tree, 0);
  if (Number.isNaN(tree.folders.fileMtimeLo[0]!)) return null; // something below not known
  let order = orders.get(tree);
  const births = created || (order?.births ?? false);
  if (!order?.current() || births !== order.births) {
    orders.set(tree, order = new TimeOrder(tree, births));
  } else if (tree.folders.changes!.length >= order.mergeAt) order.merge();
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
  const order = orderFor(tree, window);
  return order === null || order.undecoded ? null : order.folders(window, page);
}

/** Bytes the tree's time order takes outside the heap (0 until a question made it). */
export function timeOrderBytes(tree: FolderTree): number {
  return orders.get(tree)?.bytes ?? 0;
}

/** A tree's files in time order: a snapshot, read with what changed since. */
class TimeOrder {
  readonly #tree: FolderTree;
  #snap: TimeSnapshot;

  constructor(tree: FolderTree, births: boolean) {
    this.#tree = tree;
    this.#snap = snapshotOf(tree, births);
  }

  /** Whether it orders birth times too. */
  get births(): boolean {
    return this.#snap.birth !== null;
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
    return Math.min(MERGE_AT, Math.max(4, this.#snap.mtime.files.times.length >> 6));
  }

  /** Takes the records changed since into the snapshot (time_snapshot.ts). */
  merge(): void {
    this.#snap = mergedSnapshot(this.#tree, this.#snap);
  }

  /** Bytes the snapshot takes. */
  get bytes(): number {
    const { mtime, birth, depth, vcs } = this.#snap;
    const one = (o: FieldOrder) => o.times.byteLength + o.records.byteLength;
    const field = (o: FieldOrders | null) => o ? one(o.files) + one(o.folders) : 0;
    return field(mtime) + field(birth) + depth.byteLength + vcs.byteLength;
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

  /** The folders a page can come from (`null` when the walk's start has no scope). */
  folders(window: OrderWindow, page: PageAsk): PageFolders | null {
    const scope = scopeOf(this.#tree, window.startAbs, window.maxDepth);
    return scope && pageFoldersOf(this.#tree, this.#snap, window, page, scope);
  }

  /** Whether `window` can be counted: its start has a scope, and every name was decoded. */
  countsFor(window: OrderWindow): boolean {
    return scopeOf(this.#tree, window.startAbs, window.maxDepth) !== null && this.countable();
  }

  count(window: OrderWindow): WindowCount | null {
    const scope = scopeOf(this.#tree, window.startAbs, window.maxDepth);
    return scope && this.countable() ? countOf(this.#tree, this.#snap, window, scope) : null;
  }
}
