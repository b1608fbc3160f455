/**
 * A root's files in order of their modification times, and of their birth times once a
 * question on created times asked (contract §18, §26; issue 59): the exact count of a
 * windowed question's matches without visiting a folder. Everything
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
 * glob, size bound, exclude or ignore file (focus.ts `exactOf`), of either time (a file
 * with no birth time is no match of a created window: contract §7): the files inside the
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
import { type FieldOrder, mergedSnapshot, snapshotOf, type TimeSnapshot } from "./time_snapshot.ts";
import type { OrderWindow, PageAsk, PageFolders, WindowCount } from "./order_window.ts";
import { boundBelow, DIR, firstAtOrAbove, type FolderTree, infoOf } from "../store/mod.ts";

/**
 * Changed records read with the snapshot at each question; at this many they are merged
 * into it (time_snapshot.ts: 27-45 ms on 1.8 million files, against 250 ms made whole);
 * past `REMAKE_AT` (a burst between two questions) it is made whole again.
 */
export const MERGE_AT = 64;

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
  return orderOf(tree, window.created)?.count(window) ?? null;
}

/**
 * Whether {@linkcode windowCount} would count (the order made, or merged, if need be): what
 * a scan asks before it, to note its drops rather than count them, without a pass over the
 * window's range.
 */
export function windowCountable(tree: FolderTree, created: boolean): boolean {
  return orderOf(tree, created)?.countable() ?? false;
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
  const order = orderOf(tree, window.created);
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
    return Math.min(MERGE_AT, Math.max(4, this.#snap.mtime.times.length >> 6));
  }

  /** Takes the records changed since into the snapshot (time_snapshot.ts). */
  merge(): void {
    this.#snap = mergedSnapshot(this.#tree, this.#snap);
  }

  /** Bytes the snapshot takes. */
  get bytes(): number {
    const { mtime, birth, depth, vcs } = this.#snap;
    const field = (o: FieldOrder | null) => o ? o.times.byteLength + o.records.byteLength : 0;
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

  folders(
    { created, from, to, maxDepth, vcsLeftOut }: OrderWindow,
    { desc, k, tie, wants }: PageAsk,
  ): PageFolders {
    const rec = this.#tree.folders;
    const only = new Uint8Array(rec.length);
    only[0] = 1;
    const mark = (f: number) => {
      for (let c = f; c > 0 && !only[c]; c = rec.parent[c]!) only[c] = 1;
    };
    const { depth, vcs } = this.#snap;
    const { times, records } = this.#field(created);
    const column = created ? this.#tree.columns.birth : this.#tree.columns.mtime;
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
      const matches = wants === null ? 1 : this.#wanted(f, t, column, wants);
      if (matches === 0) continue;
      mark(f);
      if (t !== tie && (found += matches) >= k && Number.isNaN(edge)) edge = t;
    }
    for (const f of rec.changes!) if (this.#tree.listed(f)) mark(f);
    return { only, edge };
  }

  /** The files in order of one time: birth times when `created`. */
  #field(created: boolean): FieldOrder {
    return created ? this.#snap.birth! : this.#snap.mtime;
  }

  /**
   * How many files of record `f` with time `t` in `column` `wants`, all counted at the first
   * of their places in the snapshot (the others are passed over).
   */
  #wanted(
    f: number,
    t: number,
    column: Float64Array,
    wants: (path: string, info: Deno.FileInfo) => boolean,
  ): number {
    const tree = this.#tree;
    const cols = tree.columns;
    const { first, count } = tree.run(f);
    let n = 0;
    let dir: string | null = null;
    for (let e = first; e < first + count; e++) {
      if (cols.kind[e]! & DIR || column[e] !== t) continue;
      dir ??= relativePath(tree, f);
      const name = tree.nameOf(f, e);
      if (wants(dir === "" ? name : `${dir}/${name}`, infoOf(cols, e))) n++;
    }
    return n;
  }

  count({ created, from, to, maxDepth, vcsLeftOut }: OrderWindow): WindowCount | null {
    if (!this.countable()) return null;
    const tree = this.#tree;
    const rec = tree.folders;
    const changed = rec.changed;
    const out: WindowCount = { matches: 0, vcs: 0 };
    const { depth, vcs, deepest } = this.#snap;
    const { times, records, vcsFiles } = this.#field(created);
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
    const column = created ? cols.birth : cols.mtime;
    for (const f of rec.changes!) {
      if (!tree.listed(f)) continue;
      const { first, count } = tree.run(f);
      const place = placeOf(tree, f);
      if (place.depth > maxDepth) continue;
      for (let e = first; e < first + count; e++) {
        const t = column[e]!; // none (NaN): never inside
        if (cols.kind[e]! & DIR || !(t >= from && t < to)) continue;
        if (vcsLeftOut && place.vcs) out.vcs++;
        else out.matches++;
      }
    }
    return out;
  }
}
