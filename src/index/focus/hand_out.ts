/**
 * What a held folder's listing hands to a focused scan (focus.ts): its entries without
 * those out of the cut, each one left out counted as a walk would have met it.
 *
 * @module
 */
import { DIR, entriesOf, type FolderTree } from "../store/mod.ts";
import { allOutside, type Dropped, type Focus, outside } from "./focus.ts";
import { ListingDrops } from "./exact_drops.ts";

/**
 * The entries of held folder `folder` (at `path`), without those out of `cut`: files whose
 * time is outside it, and folders whose times, their own and all below them, are (counted
 * in `dropped` as a walk would; what lies inside the `focus` window is also counted as
 * `beyond`, and where it can be, its matches: exact_drops.ts). Unfocused: every entry.
 */
export function handOut(
  tree: FolderTree,
  folder: number,
  path: string,
  focus: Focus | null,
  cut: Focus | null,
  dropped: Dropped,
): Iterable<Deno.DirEntry> {
  if (focus === null || cut === null) return entriesOf(tree, folder);
  const cols = tree.columns;
  const only = focus.only;
  // It only narrows between folders.
  const narrowed = only !== undefined || cut.from !== focus.from || cut.to !== focus.to;
  const exact = narrowed ? ListingDrops.of(tree, focus, dropped, path) : null;
  // A folder's own time matters only where a folder may match.
  const own = (f: Focus, e: number) => f.filesOnly || outside(f, cols, e);
  return entriesOf(tree, folder, (e, end) => {
    for (; e < end; e++) {
      const isFolder = (cols.kind[e]! & DIR) !== 0;
      if (!(isFolder ? own(cut, e) : outside(cut, cols, e))) return e;
      if (!isFolder) {
        dropped.files++;
        if (narrowed && !outside(focus, cols, e)) {
          dropped.beyond++;
          dropped.reread++;
          exact?.file(folder, e);
        }
        continue;
      }
      const below = cols.sub[e]!;
      if (below < 0 || !(allOutside(cut, tree, below) || (only && !only[below]))) return e;
      dropped.files += tree.folders.files[below]!;
      dropped.listings += tree.folders.listings[below]!;
      if (narrowed && !(own(focus, e) && allOutside(focus, tree, below))) {
        dropped.beyond++;
        dropped.reread += 1 + tree.folders.files[below]! + tree.folders.listings[below]!;
        exact?.folder(folder, e, below);
      }
    }
    return end;
  });
}
