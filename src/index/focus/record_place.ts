/**
 * Where a folder record of the index lies below its root (the time order, time_order.ts):
 * the depth its listing is read at, whether it lies inside a version-control folder
 * (contract §27), and its path, each found by climbing its parents' runs.
 *
 * @module
 */
import { VCS_FOLDERS } from "../../walk/mod.ts";
import type { FolderTree } from "../store/mod.ts";

/** The names of the folders from record `f` up to the root (the root's own left out). */
function namesUp(tree: FolderTree, f: number): string[] {
  const rec = tree.folders;
  const names: string[] = [];
  for (let c = f; c > 0; c = rec.parent[c]!) {
    const parent = rec.parent[c]!;
    names.push(tree.nameOf(parent, rec.first[parent]! + rec.slot[c]!));
  }
  return names;
}

/** The depth record `f`'s listing is read at from the root (1), and whether it lies inside VCS. */
export function placeOf(tree: FolderTree, f: number): { depth: number; vcs: boolean } {
  const names = namesUp(tree, f);
  return { depth: names.length + 1, vcs: names.some((name) => VCS_FOLDERS.includes(name)) };
}

/** Record `f`'s path below the root, `/`-separated ("" the root itself). */
export function relativePath(tree: FolderTree, f: number): string {
  return namesUp(tree, f).reverse().join("/");
}
