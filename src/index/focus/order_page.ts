/**
 * The folders a time-ordered page can come from, found in a root's time order
 * (time_order.ts): the files, the folders or both (as the question asks) of the window
 * walked from the page's end, the two orders merged by time, until the page's `k` matches
 * and every one tied with the last of them are named; each one's folder record is marked,
 * and those above it, and every record changed since the snapshot.
 *
 * @module
 */
import { DIR, firstAtOrAbove, type FolderTree, infoOf } from "../store/mod.ts";
import { relativePath } from "./record_place.ts";
import type { TimeSnapshot } from "./time_snapshot.ts";
import type { OrderWindow, PageAsk, PageFolders } from "./order_window.ts";
import type { Scope } from "./order_scope.ts";
import { kindsAsked } from "./order_count.ts";

/**
 * The folders a page of `window` can come from in `tree`, its order at the snapshot `snap`,
 * for a walk that reaches `scope`.
 */
export function pageFoldersOf(
  tree: FolderTree,
  snap: TimeSnapshot,
  window: OrderWindow,
  { desc, k, tie, wants }: PageAsk,
  { lastDepth, below }: Scope,
): PageFolders {
  const { created, from, to, vcsLeftOut } = window;
  const rec = tree.folders;
  const only = new Uint8Array(rec.length);
  only[0] = 1;
  const mark = (f: number) => {
    for (let c = f; c > 0 && !only[c]; c = rec.parent[c]!) only[c] = 1;
  };
  const { depth, vcs } = snap;
  const orders = created ? snap.birth! : snap.mtime;
  const kinds = kindsAsked(orders, window);
  const lists = kinds.map((kind) => kind.order);
  const column = created ? tree.columns.birth : tree.columns.mtime;
  const changed = rec.changed;
  // Each list's range in the window, from the page's end (`at`) to its other (`end`).
  const step = desc ? -1 : 1;
  const at = lists.map((o) => firstAtOrAbove(o.times, desc ? to : from) + (desc ? -1 : 0));
  const end = lists.map((o) => firstAtOrAbove(o.times, desc ? from : to) + (desc ? -1 : 0));
  let found = 0, edge = NaN;
  // The entries of one folder tied on time lie together (a stable sort): wanted once.
  let lastF = -1, lastT = NaN, lastL = -1;
  for (;;) {
    let l = -1; // the list whose next time comes first in the page's order
    for (let c = 0; c < lists.length; c++) {
      if (at[c] === end[c]) continue;
      const t = lists[c]!.times[at[c]!]!;
      if (l < 0 || (desc ? t > lists[l]!.times[at[l]!]! : t < lists[l]!.times[at[l]!]!)) l = c;
    }
    if (l < 0) break;
    const i = at[l]!;
    at[l] = i + step;
    const f = lists[l]!.records[i]!, t = lists[l]!.times[i]!;
    if (changed[f] || depth[f]! > lastDepth || (vcsLeftOut && vcs[f])) continue;
    if (below && !below(f)) continue;
    if (found >= k && t !== edge) break; // past the k-th and those tied with it
    if (wants !== null && f === lastF && t === lastT && l === lastL) continue; // with the first
    lastF = f;
    lastT = t;
    lastL = l;
    const matches = wants === null ? 1 : wanted(tree, f, t, column, kinds[l]!.dirs, wants);
    if (matches === 0) continue;
    mark(f);
    if (t !== tie && (found += matches) >= k && Number.isNaN(edge)) edge = t;
  }
  for (const f of rec.changes!) if (tree.listed(f)) mark(f);
  return { only, edge };
}

/**
 * How many files (or folders, `dirs`) of record `f` with time `t` in `column` `wants`, all
 * counted at the first of their places in the snapshot (the others are passed over).
 */
function wanted(
  tree: FolderTree,
  f: number,
  t: number,
  column: Float64Array,
  dirs: boolean,
  wants: NonNullable<PageAsk["wants"]>,
): number {
  const cols = tree.columns;
  const { first, count } = tree.run(f);
  let n = 0;
  let dir: string | null = null;
  for (let e = first; e < first + count; e++) {
    if (((cols.kind[e]! & DIR) !== 0) !== dirs || column[e] !== t) continue;
    dir ??= relativePath(tree, f);
    const name = tree.nameOf(f, e);
    if (wants(dir === "" ? name : `${dir}/${name}`, dirs, infoOf(cols, e))) n++;
  }
  return n;
}
