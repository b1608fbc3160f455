/**
 * A window's count from a root's time order (time_order.ts): in each of the snapshot's
 * orders it asks of (the files, and the folders where folders match too), two binary
 * searches and one pass over the window's range, version-control folders apart (contract
 * §27) and listings past `maxDepth` left out; no pass at all for a range that holds every
 * one while nothing changed since the snapshot. The records changed since are passed over
 * in the snapshot and read as they are now.
 *
 * @module
 */
import { DIR, firstAtOrAbove, type FolderTree } from "../store/mod.ts";
import { placeOf } from "./record_place.ts";
import type { FieldOrder, TimeSnapshot } from "./time_snapshot.ts";
import type { OrderWindow, WindowCount } from "./order_window.ts";

/** The matches of `window` in `tree`, whose order as at the snapshot is `snap`. */
export function countOf(tree: FolderTree, snap: TimeSnapshot, window: OrderWindow): WindowCount {
  const { created, folders, from, to, maxDepth, vcsLeftOut } = window;
  const rec = tree.folders;
  const orders = created ? snap.birth! : snap.mtime;
  const out: WindowCount = { matches: 0, vcs: 0 };
  for (const order of folders ? [orders.files, orders.folders] : [orders.files]) {
    countRange(order, snap, window, rec.changed, rec.changes!.length === 0, out);
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
      if ((!folders && (cols.kind[e]! & DIR) !== 0) || !(t >= from && t < to)) continue;
      if (vcsLeftOut && place.vcs) out.vcs++;
      else out.matches++;
    }
  }
  return out;
}

/** Adds to `out` the matches of `window` in `order` (those of `changed` records passed over). */
function countRange(
  order: FieldOrder,
  snap: TimeSnapshot,
  { from, to, maxDepth, vcsLeftOut }: OrderWindow,
  changed: Uint8Array,
  unchanged: boolean,
  out: WindowCount,
): void {
  const { times, records, vcsFiles } = order;
  const n = times.length;
  if (unchanged && maxDepth >= snap.deepest && n > 0 && from <= times[0]! && to > times[n - 1]!) {
    const left = vcsLeftOut ? vcsFiles : 0; // every one, as at the snapshot: no pass over them
    out.matches += n - left;
    out.vcs += left;
    return;
  }
  const { depth, vcs } = snap;
  const end = firstAtOrAbove(times, to);
  for (let i = firstAtOrAbove(times, from); i < end; i++) {
    const f = records[i]!;
    if (changed[f] || depth[f]! > maxDepth) continue;
    if (vcsLeftOut && vcs[f]) out.vcs++;
    else out.matches++;
  }
}
