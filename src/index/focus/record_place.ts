/**
 * Where a folder record of the index lies below its root (the time order, time_order.ts):
 * the depth its listing is read at, whether it lies inside a version-control folder
 * (contract §27), and its path, from the names above it (`FolderTree.namesUp`).
 *
 * @module
 */
import { VCS_FOLDERS } from "../../walk/mod.ts";
import type { FolderTree } from "../store/mod.ts";

/** The depth record `f`'s listing is read at from the root (1), and whether it lies inside VCS. */
export function placeOf(tree: FolderTree, f: number): { depth: number; vcs: boolean } {
  const names = tree.namesUp(f);
  return { depth: names.length + 1, vcs: names.some((name) => VCS_FOLDERS.includes(name)) };
}

/** Record `f`'s path below the root, `/`-separated ("" the root itself). */
export function relativePath(tree: FolderTree, f: number): string {
  return tree.namesUp(f).reverse().join("/");
}
