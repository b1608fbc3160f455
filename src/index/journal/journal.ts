/**
 * The journal of one root's index (contract §24, §24a): what each batch of applied changes
 * did to each entry it touched, as an image of the entry after the batch (read from disk
 * when the batch was applied) and, for an entry's first touch, its image before (what the
 * index held then). Positions count batches; the state of any touched entry at any
 * position from the journal's start on is known, so the net change between two positions
 * is exact: created, removed, modified (or only written), and renamed when the move was
 * seen as one (batch.ts). Kept compact: paths interned (path_table.ts), images and steps
 * in columns outside the heap (journal_columns.ts). Bounded in steps, bytes and age: past
 * any, the oldest positions are dropped (the state at the new start becomes each entry's
 * image before), and clocks before them are too old.
 *
 * @module
 */
import type { Image } from "./image.ts";
import { Moves } from "./moves.ts";
import type { NetChange, Touch } from "./image.ts";
import { NetView } from "./net_changes.ts";
import { PathTable, ROOT_NODE } from "../store/mod.ts";
import { ABSENT, JournalColumns, type Known, NOT_ENTRY } from "./journal_columns.ts";
import { BatchTimes } from "./batch_times.ts";

export type { NetChange, NetView, Touch };

/** Options of {@linkcode Journal}. */
export interface JournalOptions {
  /** The most steps kept (`CHANGES_MAX_ENTRIES`). */
  maxSteps: number;
  /** The oldest step kept, in ms (`CHANGES_MAX_AGE`). */
  maxAgeMs: number;
  /** The most bytes kept, as {@linkcode Journal.bytes} counts them. Default: no bound. */
  maxBytes?: number;
  now: () => number;
  /**
   * Whether the index holds the entry at this root-relative path: one it does not hold is
   * remembered past the bounds while it is there, since nothing else would know it.
   * Default: every entry is held.
   */
  held?: (path: string) => boolean;
  /**
   * Paths known before the path table is rebuilt with only those still wanted, once it
   * holds four times more than it needs.
   *
   * @default {4096}
   */
  compactAt?: number;
}

/** One root's journal. */
export class Journal {
  readonly #options: JournalOptions;
  #paths = new PathTable();
  #cols = new JournalColumns();
  readonly #batches = new BatchTimes();
  #pos = 0;
  #start = Infinity;
  #startMs = Infinity;
  /** Nodes that are entries of the journal. */
  #entries = 0;
  readonly #moves = new Moves();

  constructor(options: JournalOptions) {
    this.#options = options;
  }

  /** The position now: the number of batches applied. */
  get position(): number {
    return this.#pos;
  }

  /** The first position answered exactly (`Infinity` until begun, or after a loss). */
  get start(): number {
    return this.#start;
  }

  /** Steps kept. */
  get steps(): number {
    return this.#cols.next - this.#cols.first;
  }

  /** Entries known (touched, or remembered). */
  get entries(): number {
    return this.#entries;
  }

  /** Bytes held (all of them outside the heap but the moves'). */
  get bytes(): number {
    return this.#paths.bytes + this.#cols.bytes + this.#batches.bytes;
  }

  /**
   * Positions are answered exactly from the state at time `atMs` on (the index became
   * ready then, nothing lost since): from the last batch applied at or before it.
   */
  begin(atMs = this.#options.now()): void {
    this.#start = this.#batches.firstPos(this.#pos + 1, atMs) - 1;
    this.#startMs = atMs;
  }

  /** The journal cannot follow what it knows: it starts anew from now (if it had begun). */
  restart(): void {
    const begun = Number.isFinite(this.#start);
    this.clear();
    if (begun) this.begin();
  }

  /** The index forgot everything: nothing before now can be answered exactly. */
  clear(): void {
    this.#paths = new PathTable();
    this.#cols = new JournalColumns();
    this.#batches.clear();
    this.#start = this.#startMs = Infinity;
    this.#entries = 0;
  }

  /** The node of the entry at `path`, or -1 when the journal does not know it. */
  #entry(path: string): number {
    const n = this.#paths.find(path);
    return n >= 0 && this.#cols.base[n] !== NOT_ENTRY ? n : -1;
  }

  /** An entry's image now (after the last batch), or `undefined` when never touched. */
  latest(path: string): Known | undefined {
    const n = this.#entry(path);
    if (n < 0) return undefined;
    const s = this.#cols.lastOf(n);
    return s >= 0 ? this.#cols.imageOf(s) : this.#cols.baseOf(n);
  }

  /** An entry's image before its last step (`undefined` when never touched). */
  beforeLast(path: string): Known | undefined {
    const n = this.#entry(path);
    if (n < 0) return undefined;
    const last = this.#cols.lastOf(n);
    const prev = last < 0 ? -1 : this.#cols.prevOf(last);
    return prev >= 0 ? this.#cols.imageOf(prev) : this.#cols.baseOf(n);
  }

  /** An entry's kind now where its image is not known but its kind is, else `null`. */
  kindOf(path: string): number | null {
    const n = this.#entry(path);
    if (n < 0) return null;
    const s = this.#cols.lastOf(n);
    return s >= 0 ? this.#cols.imageOf(s)?.kind ?? null : this.#cols.baseKindOf(n);
  }

  /** Whether the entry at `path` was not there when the journal first touched it. */
  madeHere(path: string): boolean {
    const n = this.#entry(path);
    return n >= 0 && this.#cols.base[n] === ABSENT;
  }

  /** The names of the entries it knows in folder `folder` ("" the root). */
  childrenOf(folder: string): string[] {
    const f = this.#paths.find(folder);
    if (f < 0) return [];
    const names: string[] = [];
    for (const n of this.#paths.children(f)) {
      if (this.#cols.base[n] !== NOT_ENTRY) names.push(this.#paths.nameOf(n));
    }
    return names;
  }

  /** Moves seen, to place events the runtime still gives under a folder's old name. */
  get moves(): Moves {
    return this.#moves;
  }

  /**
   * Keeps what an entry is now, though nothing changed it: the index is about to forget
   * it without an event (its folder's time moved), and the journal must still know it.
   */
  remember(path: string, image: Image): void {
    if (this.#entry(path) < 0) this.#add(this.#paths.find(path, true), image);
  }

  #add(n: number, base: Known, kind?: number): void {
    this.#cols.nodes(this.#paths.size);
    this.#cols.setBase(n, base, kind);
    this.#entries++;
  }

  /** Keeps one batch's touches as the next position. */
  record(touches: readonly Touch[]): void {
    const pos = ++this.#pos;
    const ms = this.#options.now();
    const cols = this.#cols;
    for (const t of touches) {
      const n = this.#paths.find(t.path, true);
      cols.nodes(this.#paths.size);
      if (cols.base[n] === NOT_ENTRY) this.#add(n, t.before, t.kind);
      if (t.after !== null) this.#moves.reused(t.path);
      let from = -1;
      if (t.from !== undefined) {
        from = this.#paths.find(t.from, true);
        cols.nodes(this.#paths.size);
        cols.movedInto[n] = 1;
      }
      cols.push(pos, n, t.after, t.written, from);
    }
    this.#batches.add(pos, ms, touches.length);
    this.#bound(ms);
  }

  /** The position the state at time `ms` is the state at, or `null` before the start. */
  positionAt(ms: number): number | null {
    if (ms < this.#startMs) return null;
    return Math.max(this.#start, this.#batches.lastAtOrBefore(ms) ?? -Infinity);
  }

  /** When the state at position `pos` was (the time its batch was applied). */
  timeOf(pos: number): number {
    return Math.max(this.#startMs, this.#batches.timeOf(pos) ?? -Infinity);
  }

  /** `read` given the net changes between positions `since` and `until`. */
  between<T>(since: number, until: number, read: (view: NetView) => T): T {
    try {
      return read(new NetView(this.#paths, this.#cols, since, until));
    } finally {
      this.#paths.forgetPaths();
    }
  }

  /** Drops the oldest batches past the bounds; their last state becomes each entry's base. */
  #bound(now: number): void {
    const { maxSteps, maxAgeMs } = this.#options;
    const maxBytes = this.#options.maxBytes ?? Infinity;
    const steps = this.steps;
    const bytes = this.bytes;
    const oldest = this.#batches.oldestMs() ?? now;
    if (steps <= maxSteps && bytes <= maxBytes && oldest >= now - maxAgeMs) return;
    // Drop a tenth at once (not a pass per batch): by steps, or by bytes at their average.
    const share = Math.min(1, maxSteps / steps, maxBytes / bytes);
    const upTo = this.#batches.dropFront(Math.floor(steps * share * 0.9), now - maxAgeMs);
    if (upTo === null) return;
    this.#start = Math.max(this.#start, upTo.pos);
    this.#startMs = Math.max(this.#startMs, upTo.ms);
    const cols = this.#cols;
    const end = cols.firstAbove(upTo.pos);
    for (let s = cols.first; s < end; s++) cols.baseFromStep(cols.stepNode[s - cols.offset]!, s);
    cols.first = end;
    // Gone, or held by the index: nothing to keep. Else it is known only here.
    const held = this.#options.held ?? (() => true);
    for (let n = 1; n < this.#paths.size; n++) {
      const base = cols.base[n];
      if (base === NOT_ENTRY || cols.lastOf(n) >= 0) continue;
      if (base === ABSENT || held(this.#paths.pathOf(n))) {
        cols.base[n] = NOT_ENTRY;
        cols.movedInto[n] = 0;
        this.#entries--;
      }
    }
    this.#paths.forgetPaths();
    const at = this.#options.compactAt ?? 4096;
    if (this.#paths.size > at && this.#paths.size > 4 * (this.#entries + this.steps)) {
      this.#compact();
    }
  }

  /** Keeps only the nodes still wanted (entries, steps' sources, and their folders). */
  #compact(): void {
    const cols = this.#cols;
    const wanted = new Uint8Array(this.#paths.size);
    for (let n = 0; n < this.#paths.size; n++) wanted[n] = cols.base[n] === NOT_ENTRY ? 0 : 1;
    for (let s = cols.first; s < cols.next; s++) {
      const from = cols.fromOf(s);
      if (from >= 0) wanted[from] = 1;
    }
    const into = new JournalColumns();
    const map = new Int32Array(this.#paths.size).fill(-1);
    const table = this.#paths.rebuilt((n) => wanted[n] === 1, (from, to) => {
      map[from] = to;
    });
    into.nodes(table.size);
    for (let n = 0; n < this.#paths.size; n++) {
      if (map[n]! >= 0) cols.moveNode(n, into, map[n]!);
    }
    into.base[ROOT_NODE] = cols.base[ROOT_NODE]!;
    cols.renumber(map, into);
    this.#paths = table;
    this.#cols = into;
  }
}
