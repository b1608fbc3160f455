/**
 * A window's count from a root's time order (time_order.ts), from the root or a folder below
 * it (order_scope.ts): in each of the snapshot's orders it asks of (the files, the folders,
 * or both, as the question asks for them), two binary searches and one pass over the window's
 * range, version-control folders apart (contract §27) and listings past `maxDepth` left out;
 * no pass at all for a range that holds every one while nothing changed since the snapshot
 * (from the root, or of files from a folder below it). The records changed since are passed
 * over in the snapshot and read as they are now.
 *
 * @module
 */
import { boundBelow, DIR, firstAtOrAbove, type FolderTree } from "../store/mod.ts";
import { placeOf } from "./record_place.ts";
import type { FieldOrder, FieldOrders, TimeSnapshot } from "./time_snapshot.ts";
import type { OrderWindow, WindowCount } from "./order_window.ts";
import type { Scope } from "./order_scope.ts";

/**
 * The matches of `window` in `tree`, whose order as at the snapshot is `snap`, read by a walk
 * that reaches `scope`.
 */
export function countOf(
  tree: FolderTree,
  snap: TimeSnapshot,
  window: OrderWindow,
  scope: Scope,
): WindowCount {
  const { created, files, folders, from, to, vcsLeftOut } = window;
  const { lastDepth, below } = scope;
  const rec = tree.folders;
  const orders = created ? snap.birth! : snap.mtime;
  const out: WindowCount = { matches: 0, vcs: 0 };
  const unchanged = rec.changes!.length === 0;
  for (const { order, dirs } of kindsAsked(orders, window)) {
    if (unchanged && everyOne(tree, snap, order, dirs, window, scope, out)) continue;
    countRange(order, snap, window, scope, rec.changed, out);
  }
  const cols = tree.columns;
  const column = created ? cols.birth : cols.mtime;
  // A start below the root is visited itself (scan.ts): its own time in its parent's listing.
  if (folders && window.visitsStart && scope.start !== 0) {
    const { first, count } = tree.run(rec.parent[scope.start]!);
    for (let e = first; e < first + count; e++) {
      const t = column[e]!;
      if (cols.sub[e] === scope.start && t >= from && t < to) out.matches++;
    }
  }
  for (const f of rec.changes!) {
    if (!tree.listed(f) || (below && !below(f))) continue;
    const { first, count } = tree.run(f);
    const place = placeOf(tree, f);
    if (place.depth > lastDepth) continue;
    for (let e = first; e < first + count; e++) {
      const t = column[e]!; // none (NaN): never inside
      if (!((cols.kind[e]! & DIR) !== 0 ? folders : files) || !(t >= from && t < to)) continue;
      if (vcsLeftOut && place.vcs) out.vcs++;
      else out.matches++;
    }
  }
  return out;
}

/**
 * The orders of the kinds `window` asks for, each with whether it is of folders: its files, its
 * folders, or both (files first).
 */
export function kindsAsked(
  orders: FieldOrders,
  { files, folders }: OrderWindow,
): { order: FieldOrder; dirs: boolean }[] {
  return [
    ...(files ? [{ order: orders.files, dirs: false }] : []),
    ...(folders ? [{ order: orders.folders, dirs: true }] : []),
  ];
}

/**
 * Adds to `out` every one of `order` (kept apart inside version-control folders when they
 * are left out) when `window` holds them all and the walk reaches every listing, nothing
 * changed since the snapshot, with no pass over them: from the root, the order's own count;
 * of files from a folder below it, the folder's count of the files below it
 * (subtree_times.ts), which, every time there known, are its files in the order
 * (home-2m-184k: 1.3 million files below `index-00`). Says whether it did.
 */
function everyOne(
  tree: FolderTree,
  snap: TimeSnapshot,
  { times, vcsFiles }: FieldOrder,
  dirs: boolean,
  { created, from, to, vcsLeftOut }: OrderWindow,
  { start, lastDepth, below }: Scope,
  out: WindowCount,
): boolean {
  const n = times.length;
  if (lastDepth < snap.deepest || n === 0 || from > times[0]! || to <= times[n - 1]!) return false;
  if (below === null) {
    const left = vcsLeftOut ? vcsFiles : 0;
    out.matches += n - left;
    out.vcs += left;
    return true;
  }
  if (dirs) return false;
  const rec = tree.folders;
  boundBelow(tree, start);
  if (Number.isNaN(created ? rec.fileBirthLo[start]! : rec.fileMtimeLo[start]!)) return false;
  let vcs = 0; // every file below has a time (the bound is known): each one is in the order
  if (vcsLeftOut && vcsFiles > 0) {
    const kind = tree.columns.kind;
    for (let f = 0; f < snap.vcs.length; f++) {
      if (!snap.vcs[f] || !tree.listed(f) || !below(f)) continue;
      const { first, count } = tree.run(f);
      for (let e = first; e < first + count; e++) if ((kind[e]! & DIR) === 0) vcs++;
    }
  }
  out.matches += rec.files[start]! - vcs;
  out.vcs += vcs;
  return true;
}

/** Adds to `out` the matches of `window` in `order` (those of `changed` records passed over). */
function countRange(
  order: FieldOrder,
  snap: TimeSnapshot,
  { from, to, vcsLeftOut }: OrderWindow,
  { lastDepth, below, marks }: Scope,
  changed: Uint8Array,
  out: WindowCount,
): void {
  const { times, records } = order;
  const { depth, vcs } = snap;
  const end = firstAtOrAbove(times, to);
  for (let i = firstAtOrAbove(times, from); i < end; i++) {
    const f = records[i]!;
    if (changed[f] || depth[f]! > lastDepth) continue;
    if (marks && marks[f] !== 1 && (marks[f] === 2 || !below!(f))) continue; // not below the start
    if (vcsLeftOut && vcs[f]) out.vcs++;
    else out.matches++;
  }
}
