/**
 * What the index holds of an entry, looked at without reading anything (contract §24: the
 * journal's image of an entry before a change): its stat as held, absent (its folder's
 * listing, held or kept from before, lacks it) or unknown; the names a folder's listing
 * held; and how much a focused scan could read at most.
 *
 * @module
 */
import { DIR, type FolderTree } from "../store/mod.ts";
import { hostRules } from "../../security/mod.ts";
import {
  countWindow,
  type Focus,
  keepOrder,
  type OrderWindow,
  outside,
  type PageAsk,
  type PageFolders,
  pageFolders,
  type WindowCount,
  windowCount,
  windowCountable,
} from "../focus/mod.ts";

/**
 * An entry as the index holds it: kind, size and times, and a folder's inode where its
 * listing is held; `null` absent; "unknown".
 */
export type HeldImage = {
  kind: number;
  size: number;
  mtime: number;
  birth: number;
  ino?: number;
} | null;

/** A read-only look at a held tree. */
export class HeldView {
  readonly #tree: FolderTree;
  readonly #root: string;

  constructor(tree: FolderTree, rootReal: string) {
    this.#tree = tree;
    this.#root = rootReal;
  }

  /** What is held of the entry at `abs` (below the root). */
  peek(abs: string): HeldImage | "unknown" {
    if (!abs.startsWith(this.#root + hostRules.sep)) return "unknown";
    const tree = this.#tree;
    const { parent, name } = tree.parentOf(abs);
    if (!tree.kept(parent)) return "unknown";
    const e = tree.find(parent, name);
    if (e < 0) return null;
    const cols = tree.columns;
    if (Number.isNaN(cols.mtime[e]!)) return "unknown";
    const kind = cols.kind[e]!;
    const folder = kind & DIR ? tree.node(abs, false) : -1;
    const ino = tree.kept(folder) ? tree.stamp(folder).ino : 0;
    return {
      kind,
      size: cols.size[e]!,
      mtime: cols.mtime[e]!,
      birth: cols.birth[e]!,
      ...(ino > 0 ? { ino } : {}),
    };
  }

  /** The kind of the entry at `abs` as its folder's held listing has it, or `null`. */
  kindOf(abs: string): number | null {
    if (!abs.startsWith(this.#root + hostRules.sep)) return null;
    const tree = this.#tree;
    const { parent, name } = tree.parentOf(abs);
    if (!tree.kept(parent)) return null;
    const e = tree.find(parent, name);
    return e < 0 ? null : tree.columns.kind[e]!;
  }

  /**
   * The names in the folder at `abs` as the index last listed it (held, or kept from before
   * an event made it read again: names added since raised events), with whether each is a
   * folder; `null` when it holds no listing of it.
   */
  names(abs: string): { name: string; isDirectory: boolean }[] | null {
    const tree = this.#tree;
    const folder = abs === this.#root
      ? 0
      : abs.startsWith(this.#root + hostRules.sep)
      ? tree.node(abs, false)
      : -1;
    if (!tree.kept(folder)) return null;
    const { first, count } = tree.run(folder);
    const out = [];
    for (let e = first; e < first + count; e++) {
      out.push({ name: tree.nameOf(folder, e), isDirectory: (tree.columns.kind[e]! & DIR) !== 0 });
    }
    return out;
  }

  /**
   * The matches inside `focus`, a window counted exactly (focus.ts `exactOf`) of a walk from
   * the root or a folder below it, from the root's time order (time_order.ts: no folder
   * visited); `null` for any other, or when the index alone cannot tell.
   */
  windowCount(focus: Focus | null): WindowCount | null {
    const window = countWindow(focus);
    return window && windowCount(this.#tree, window);
  }

  /** Whether {@linkcode HeldView.windowCount} would count, without counting. */
  windowCountable(focus: Focus | null): boolean {
    const window = countWindow(focus);
    return window !== null && windowCountable(this.#tree, window);
  }

  /**
   * The folder records a time-ordered page of files in `window` (from the root) can come
   * from, and the time past which it cannot, found in the time order (time_order.ts
   * `pageFolders`), or `null`.
   */
  pageFolders(asked: { window: OrderWindow; page: PageAsk }): PageFolders | null {
    return pageFolders(this.#tree, asked.window, asked.page);
  }

  /** Brings the root's time order up to date ahead of the next question (time_order.ts). */
  keepOrder(): void {
    keepOrder(this.#tree);
  }

  /**
   * At most how many entries and folders a scan focused on `focus` and not cut reads, when
   * that is at most `most` (else `Infinity`, found without looking further): every folder
   * held, and every entry whose time is not known outside the window (dead ones too).
   */
  wholeReadAtMost(focus: Focus, most: number): number {
    const tree = this.#tree;
    let n = tree.records;
    if (n > most) return Infinity;
    const cols = tree.columns;
    for (let e = 0; e < cols.length; e++) {
      if (!outside(focus, cols, e) && ++n > most) return Infinity;
    }
    return n;
  }
}
