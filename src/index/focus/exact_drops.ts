/**
 * The matches a cut leaves out, counted from the index alone (contract §11, §26: a count is
 * given when known). A time-ordered page narrows its cut to what can still change the page
 * (focus.ts), so most matches inside the window are never handed to the walk. When every
 * entry of a kind asked for inside the window is a match as far as the walk goes (no glob,
 * no size bound, not those with no created time: `exactOf`, focus.ts), each one the cut
 * leaves out is counted here as the walk would have counted it: a file of a handed listing
 * (none on a folders-only question), or every entry of a kind asked for inside the window
 * at and below a folder left out whole, down to the depth
 * the walk reads; those inside a version-control folder below the start (contract §27)
 * apart, as the walk counts them. Anything the index alone cannot tell (a name that could
 * not be decoded, a folder the start reaches through a link, more than
 * {@linkcode EXACT_MAX_ENTRIES} entries below one folder) leaves that drop uncounted, and
 * the answer is counted as before (index_loop.ts). When the whole window is counted from the
 * root's time order instead (time_order.ts), a drop is only noted.
 *
 * @module
 */
import { hostRules } from "../../security/mod.ts";
import { type ScanOutcome, UNDECODED, VCS_FOLDERS } from "../../walk/mod.ts";
import type { SearchRequest } from "../../query/mod.ts";
import { DIR, type FolderTree } from "../store/mod.ts";
import type { Dropped, Focus } from "./focus.ts";

/** The most entries counted below one folder left out whole (past it, that drop is not counted). */
export const EXACT_MAX_ENTRIES = 1_000_000;

/** Counts one handed listing's drops into a scan's {@linkcode Dropped}. */
export class ListingDrops {
  readonly #tree: FolderTree;
  readonly #focus: Focus;
  readonly #dropped: Dropped;
  readonly #depth: number;
  readonly #maxDepth: number;
  readonly #inVcs: boolean;
  readonly #vcsLeftOut: boolean;

  /**
   * For the listing at `path`, or `null` when nothing can be counted there (the request's
   * focus has no `exact`) or its place in the walk is not known (not at or below the start
   * as the walk reaches it).
   */
  static of(
    tree: FolderTree,
    focus: Focus,
    dropped: Dropped,
    path: string,
  ): ListingDrops | null {
    const exact = focus.exact;
    if (!exact) return null;
    const sep = hostRules.sep;
    if (path !== exact.startAbs && !path.startsWith(exact.startAbs + sep)) return null;
    if (exact.counted) return new ListingDrops(tree, focus, dropped, 0, false);
    const below = path.slice(exact.startAbs.length + 1);
    const parts = below === "" ? [] : below.split(sep);
    const inVcs = exact.vcsLeftOut && parts.some((p) => VCS_FOLDERS.includes(p));
    return new ListingDrops(tree, focus, dropped, 1 + parts.length, inVcs);
  }

  private constructor(
    tree: FolderTree,
    focus: Focus,
    dropped: Dropped,
    depth: number,
    inVcs: boolean,
  ) {
    this.#tree = tree;
    this.#focus = focus;
    this.#dropped = dropped;
    this.#depth = depth;
    this.#maxDepth = focus.exact!.maxDepth;
    this.#inVcs = inVcs;
    this.#vcsLeftOut = focus.exact!.vcsLeftOut;
  }

  /**
   * Entry `e` of `folder`, a file inside the window, left out by the cut: one match (none on a
   * folders-only question).
   */
  file(folder: number, e: number): void {
    const exact = this.#focus.exact!;
    if (exact.counted || !exact.files) {
      this.#dropped.exact++; // the window's count comes from the time order, or it is no match
      return;
    }
    if (this.#tree.nameOf(folder, e).includes(UNDECODED)) return;
    this.#count(this.#inVcs, 1);
    this.#dropped.exact++;
  }

  /**
   * Entry `e` of `folder`, a folder left out whole by the cut, something at or below it
   * inside the window: its matches, counted if the index alone can tell them.
   */
  folder(folder: number, e: number, below: number): void {
    if (this.#focus.exact!.counted) {
      this.#dropped.exact++;
      return;
    }
    const counts = { matches: 0, vcs: 0, entries: 0 };
    const name = this.#tree.nameOf(folder, e);
    if (name.includes(UNDECODED)) return;
    if (!this.#focus.filesOnly && this.#inside(e)) {
      if (this.#inVcs) counts.vcs++;
      else counts.matches++;
    }
    const vcs = this.#inVcs || (this.#vcsLeftOut && VCS_FOLDERS.includes(name));
    // Its listing is read at the next depth, if the walk reads that deep.
    if (this.#depth < this.#maxDepth && !this.#below(below, this.#depth + 1, vcs, counts)) return;
    this.#dropped.matches += counts.matches;
    this.#dropped.vcs += counts.vcs;
    this.#dropped.exact++;
  }

  /** Counts the listing of record `folder` read at `depth`, and below; false if not known. */
  #below(
    folder: number,
    depth: number,
    vcs: boolean,
    counts: { matches: number; vcs: number; entries: number },
  ): boolean {
    const tree = this.#tree;
    if (!tree.listed(folder)) return false;
    const { first, count } = tree.run(folder);
    if ((counts.entries += count) > EXACT_MAX_ENTRIES) return false;
    const cols = tree.columns;
    for (let e = first; e < first + count; e++) {
      if (Number.isNaN(cols.mtime[e]!)) return false;
      const isFolder = (cols.kind[e]! & DIR) !== 0;
      const name = isFolder || this.#inside(e) ? tree.nameOf(folder, e) : "";
      if (name.includes(UNDECODED)) return false;
      if ((isFolder ? !this.#focus.filesOnly : this.#focus.exact!.files) && this.#inside(e)) {
        if (vcs) counts.vcs++;
        else counts.matches++;
      }
      if (!isFolder || depth >= this.#maxDepth) continue;
      const sub = cols.sub[e]!;
      if (sub < 0) return false;
      const inVcs = vcs || (this.#vcsLeftOut && VCS_FOLDERS.includes(name));
      if (!this.#below(sub, depth + 1, inVcs, counts)) return false;
    }
    return true;
  }

  /** Whether entry `e`'s time is inside the window (a stat'ed one with no birth time: not). */
  #inside(e: number): boolean {
    const cols = this.#tree.columns;
    const t = this.#focus.created ? cols.birth[e]! : cols.mtime[e]!;
    return t >= this.#focus.from && t < this.#focus.to;
  }

  #count(vcs: boolean, n: number): void {
    if (vcs) this.#dropped.vcs += n;
    else this.#dropped.matches += n;
  }
}

/** Nothing dropped yet. */
export function noneDropped(): Dropped {
  return { files: 0, listings: 0, beyond: 0, exact: 0, matches: 0, vcs: 0, reread: 0 };
}

/**
 * Whether an unfocused walk could have answered otherwise: it would have visited the
 * `dropped` files and read the `dropped` listings too, and a page is cut by counts of what
 * was visited.
 */
export function mayDiffer(outcome: ScanOutcome, dropped: Dropped, request: SearchRequest): boolean {
  if (dropped.files === 0 && dropped.listings === 0) return false;
  const { scannedFiles, scannedDirectories } = outcome.walk;
  const { maxFilesScanned, maxDirectoriesScanned } = request.limits;
  return outcome.stopped !== null || scannedFiles + dropped.files > maxFilesScanned ||
    scannedDirectories + dropped.listings > maxDirectoriesScanned;
}
