/**
 * The net change of each entry a journal touched between two positions (contract §24):
 * created, removed, modified, or renamed when it was moved from an entry present then and
 * gone now (each source once); each with the kind it had (§24a: a removed folder is a
 * folder, whether or not the index held its stat); and, for a folder moved or removed as a
 * whole, which of the changes below it went with it (§24a: one entry for the folder).
 * Given one at a time, so that a window of a million changes holds none of them at once.
 *
 * @module
 */
import { DIR } from "../store/mod.ts";
import { sameImage } from "./image.ts";
import { type JournalColumns, type Known, NOT_ENTRY } from "./journal_columns.ts";
import { type PathTable, ROOT_NODE } from "../store/mod.ts";
import type { NetChange } from "./image.ts";

const TOUCHED = 1;
const MOVED_INTO = 2;

/** A net change, with what tells whether it went with a folder above it. */
export interface NodeChange extends NetChange {
  node: number;
  /** A renamed entry that is as it was before the move (it went with its folder as it was). */
  unchanged: boolean;
}

/** The net changes between two positions. */
export class NetView {
  readonly #paths: PathTable;
  readonly #cols: JournalColumns;
  readonly #since: number;
  readonly #until: number;
  readonly #mark: Uint8Array;
  readonly #nodes: number[] = [];
  readonly #renames = new Map<number, number>();
  readonly #claimed = new Set<number>();
  /** Folders' net changes, as asked by {@linkcode changeOf}. */
  readonly #folders = new Map<number, NodeChange | null>();

  /**
   * Only the steps between are read (they lie together, in position order), then, for each
   * entry they touched, its steps back to `since`.
   */
  constructor(paths: PathTable, cols: JournalColumns, since: number, until: number) {
    this.#paths = paths;
    this.#cols = cols;
    this.#since = since;
    this.#until = until;
    const mark = this.#mark = new Uint8Array(paths.size);
    const movers: number[] = [];
    for (let s = cols.firstAbove(since), hi = cols.firstAbove(until); s < hi; s++) {
      const n = cols.stepNode[s - cols.offset]!;
      if ((mark[n]! & TOUCHED) === 0) this.#nodes.push(n);
      mark[n]! |= TOUCHED;
      if (cols.fromOf(s) >= 0 && (mark[n]! & MOVED_INTO) === 0) {
        movers.push(n);
        mark[n]! |= MOVED_INTO;
      }
    }
    for (const n of movers) {
      const after = this.#stateAt(n, until);
      if (after === null || after === "unknown" || this.#stateAt(n, since) !== null) continue;
      const from = this.#renamedFrom(n, after.kind);
      // A source is renamed once: any other move from it was of something made after.
      if (from === null || this.#claimed.has(from)) continue;
      this.#claimed.add(from);
      this.#renames.set(n, from);
    }
  }

  /** Every net change (unsorted). */
  *changes(): Iterable<NodeChange> {
    for (const n of this.#nodes) {
      const change = this.#change(n);
      if (change !== null) yield change;
    }
  }

  /** The folder above node `n` (-1 above the root). */
  parentOf(n: number): number {
    return this.#paths.parentOf(n);
  }

  /** The net change of node `n`, or `null` (kept for the folders asked about). */
  changeOf(n: number): NodeChange | null {
    if (n === ROOT_NODE || (this.#mark[n]! & TOUCHED) === 0) return null;
    let change = this.#folders.get(n);
    if (change === undefined) this.#folders.set(n, change = this.#change(n));
    return change;
  }

  #change(n: number): NodeChange | null {
    const cols = this.#cols;
    const since = this.#since;
    let s = cols.lastOf(n);
    while (s >= 0 && cols.posOf(s) > this.#until) s = cols.prevOf(s);
    const after = cols.imageOf(s);
    let written = false;
    for (; s >= 0 && cols.posOf(s) > since; s = cols.prevOf(s)) written ||= cols.writtenAt(s);
    const before = s >= 0 ? cols.imageOf(s) : cols.baseOf(n);
    const path = this.#paths.pathOf(n);
    const change = (c: NetChange, unchanged = false): NodeChange => ({ ...c, node: n, unchanged });
    if (after === null) {
      if (before === null || this.#claimed.has(n)) return null;
      // Not known from an image: the kind the index knew, else a folder if anything was
      // known below it.
      const kind = before !== "unknown"
        ? before.kind
        : cols.baseKindOf(n) ?? (this.#paths.hasChildren(n) ? DIR : null);
      return change({ path, change: "removed", image: before, kind });
    }
    if (before === null) {
      const from = this.#renames.get(n);
      if (from === undefined) {
        return change({ path, change: "created", image: after, kind: after.kind });
      }
      const was = this.#stateAt(from, since);
      const previousPath = this.#paths.pathOf(from);
      const same = !written && was !== null && was !== "unknown" && sameImage(was, after);
      return change(
        { path, change: "renamed", image: after, kind: after.kind, previousPath },
        same,
      );
    }
    if (before === "unknown" || written || !sameImage(before, after)) {
      return change({ path, change: "modified", image: after, kind: after.kind });
    }
    return null;
  }

  /** Node `n`'s image at position `pos`: its last step's at or before it, else its base. */
  #stateAt(n: number, pos: number): Known {
    const cols = this.#cols;
    let s = cols.lastOf(n);
    while (s >= 0 && cols.posOf(s) > pos) s = cols.prevOf(s);
    return s >= 0 ? cols.imageOf(s) : cols.baseOf(n);
  }

  /** Node `n`'s steps in `(lo, hi]`, oldest first. */
  #stepsIn(n: number, lo: number, hi: number): number[] {
    const cols = this.#cols;
    const out: number[] = [];
    for (let s = cols.lastOf(n); s >= 0 && cols.posOf(s) > lo; s = cols.prevOf(s)) {
      if (cols.posOf(s) <= hi) out.push(s);
    }
    return out.reverse();
  }

  /**
   * Where an entry absent at `since` and present at `until` was renamed from: the last
   * rename into it in between, followed back while its source was itself renamed in
   * between, to a path present at `since` and absent at `until`; `null` if none.
   */
  #renamedFrom(n: number, kind: number): number | null {
    const cols = this.#cols;
    const since = this.#since;
    let move = this.#stepsIn(n, since, this.#until).findLast((s) => cols.fromOf(s) >= 0);
    for (let hops = 0; move !== undefined && hops < 16; hops++) {
      const at = cols.posOf(move);
      const source = cols.fromOf(move);
      if (cols.base[source] === NOT_ENTRY || this.#stateAt(source, this.#until) !== null) {
        return null;
      }
      // The same entry all along: not gone and made again before it moved (its removal may
      // come a batch before the move that explains it).
      const between = this.#stepsIn(source, since, at - 1);
      const gone = between.findIndex((s) => !cols.presentAt(s));
      if (gone >= 0 && between.slice(gone).some((s) => cols.presentAt(s))) return null;
      const then = this.#stateAt(source, since);
      if (then !== null) {
        const was = then === "unknown" ? cols.baseKindOf(source) : then.kind;
        return was === null || was === kind ? source : null;
      }
      move = this.#stepsIn(source, since, at).findLast((s) => cols.fromOf(s) >= 0);
    }
    return null;
  }
}
