/**
 * The journal of one root's index (contract §24): what each batch of applied changes did
 * to each entry it touched, as an image of the entry after the batch (read from disk when
 * the batch was applied) and, for an entry's first touch, its image before (what the index
 * held then). Positions count batches; the state of any touched entry at any position from
 * the journal's start on is known, so the net change between two positions is exact:
 * created, removed, modified (or only written), and renamed when the move was seen as one
 * (batch.ts). Bounded in steps and in age: past either, the oldest positions are dropped
 * (the state at the new start becomes each entry's image before), and clocks before them
 * are too old.
 *
 * @module
 */
import type { Image } from "./image.ts";
import { Moves } from "./moves.ts";
import { type Entry, type NetChange, stateAt, type Step, type Touch } from "./steps.ts";
import { netChanges } from "./net_changes.ts";

export type { NetChange, Touch };

/** Options of {@linkcode Journal}. */
export interface JournalOptions {
  /** The most steps kept (`CHANGES_MAX_ENTRIES`). */
  maxSteps: number;
  /** The oldest step kept, in ms (`CHANGES_MAX_AGE`). */
  maxAgeMs: number;
  /**
   * The most heap bytes kept, as {@linkcode Journal.bytes} estimates them: a share of the
   * index worker's heap, so that the journal never takes the index (or the process) down.
   * Default: no bound.
   */
  maxBytes?: number;
  now: () => number;
  /**
   * Whether the index holds the entry at this root-relative path: one it does not hold is
   * remembered past the bounds while it is there, since nothing else would know it.
   * Default: every entry is held.
   */
  held?: (path: string) => boolean;
}

/** Estimated heap bytes of one entry besides its path, and of one step (docs/benchmarks.md). */
const ENTRY_BYTES = 330;
const STEP_BYTES = 250;

/** One root's journal. */
export class Journal {
  readonly #options: JournalOptions;
  readonly #entries = new Map<string, Entry>();
  /** Each batch kept: its position, when it was applied, and its steps. */
  #batches: { pos: number; ms: number; steps: number }[] = [];
  #pos = 0;
  #start = Infinity;
  #startMs = Infinity;
  #steps = 0;
  #bytes = 0;

  /** The names of the touched entries in each folder (root-relative, "" the root). */
  readonly #children = new Map<string, Set<string>>();
  readonly #moves = new Moves();
  /** The entries a move went into (a step with `from`). */
  readonly #movedInto = new Set<string>();

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
    return this.#steps;
  }

  /** Heap bytes kept, estimated. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Positions are answered exactly from the state at time `atMs` on (the index became
   * ready then, nothing lost since): from the last batch applied at or before it.
   */
  begin(atMs = this.#options.now()): void {
    this.#start = this.#batches.find((b) => b.ms > atMs)?.pos ?? this.#pos + 1;
    this.#start--;
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
    this.#entries.clear();
    this.#children.clear();
    this.#movedInto.clear();
    this.#batches = [];
    this.#start = this.#startMs = Infinity;
    this.#steps = this.#bytes = 0;
  }

  /** An entry's image now (after the last batch), or `undefined` when never touched. */
  latest(path: string): Image | "unknown" | undefined {
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    return entry.steps.length > 0 ? entry.steps.at(-1)!.image : entry.base;
  }

  /** An entry's image before its last step (`undefined` when never touched). */
  beforeLast(path: string): Image | "unknown" | undefined {
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    return entry.steps.length > 1 ? entry.steps.at(-2)!.image : entry.base;
  }

  /** Whether the entry at `path` was not there when the journal first touched it. */
  madeHere(path: string): boolean {
    return this.#entries.get(path)?.base === null;
  }

  /** The names of the entries it knows in folder `folder` ("" the root). */
  childrenOf(folder: string): Iterable<string> {
    return this.#children.get(folder) ?? [];
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
    if (!this.#entries.has(path)) this.#add(path, image);
  }

  #add(path: string, base: Image | "unknown"): Entry {
    const entry: Entry = { base, steps: [] };
    this.#entries.set(path, entry);
    this.#bytes += ENTRY_BYTES + 2 * path.length;
    const at = path.lastIndexOf("/");
    const folder = at < 0 ? "" : path.slice(0, at);
    let names = this.#children.get(folder);
    if (!names) this.#children.set(folder, names = new Set());
    names.add(path.slice(at + 1));
    return entry;
  }

  #delete(path: string): void {
    this.#entries.delete(path);
    this.#movedInto.delete(path);
    this.#bytes -= ENTRY_BYTES + 2 * path.length;
    const at = path.lastIndexOf("/");
    const folder = at < 0 ? "" : path.slice(0, at);
    const names = this.#children.get(folder);
    names?.delete(path.slice(at + 1));
    if (names?.size === 0) this.#children.delete(folder);
  }

  /** Keeps one batch's touches as the next position. */
  record(touches: readonly Touch[]): void {
    const pos = ++this.#pos;
    const ms = this.#options.now();
    for (const t of touches) {
      const entry = this.#entries.get(t.path) ?? this.#add(t.path, t.before);
      if (t.after !== null) this.#moves.reused(t.path);
      const step: Step = { pos, image: t.after, written: t.written };
      if (t.from !== undefined) {
        step.from = t.from;
        this.#movedInto.add(t.path);
      }
      entry.steps.push(step);
    }
    this.#steps += touches.length;
    this.#bytes += STEP_BYTES * touches.length;
    this.#batches.push({ pos, ms, steps: touches.length });
    this.#bound(ms);
  }

  /** The position the state at time `ms` is the state at, or `null` before the start. */
  positionAt(ms: number): number | null {
    if (ms < this.#startMs) return null;
    let at = this.#start;
    for (const batch of this.#batches) {
      if (batch.ms > ms) break;
      if (batch.pos > at) at = batch.pos;
    }
    return at;
  }

  /** When the state at position `pos` was (the time its batch was applied). */
  timeOf(pos: number): number {
    let ms = this.#startMs;
    for (const batch of this.#batches) {
      if (batch.pos > pos) break;
      ms = Math.max(ms, batch.ms);
    }
    return ms;
  }

  /** The net change of every entry between positions `since` and `until` (unsorted). */
  between(since: number, until: number): NetChange[] {
    return netChanges(this.#entries, this.#movedInto, since, until);
  }

  /** Drops the oldest batches past the bounds; their last state becomes each entry's base. */
  #bound(now: number): void {
    const { maxSteps, maxAgeMs } = this.#options;
    const maxBytes = this.#options.maxBytes ?? Infinity;
    const oldest = this.#batches[0]?.ms ?? now;
    if (this.#steps <= maxSteps && this.#bytes <= maxBytes && oldest >= now - maxAgeMs) return;
    // Drop a tenth at once (not a pass per batch): by steps, or by bytes at their average.
    const share = Math.min(1, maxSteps / this.#steps, maxBytes / this.#bytes);
    const keep = Math.floor(this.#steps * share * 0.9);
    let drop = 0;
    let steps = this.#steps;
    while (
      drop < this.#batches.length &&
      (steps > keep || this.#batches[drop]!.ms < now - maxAgeMs)
    ) steps -= this.#batches[drop++]!.steps;
    if (drop === 0) return;
    const { pos: upTo, ms: upToMs } = this.#batches[drop - 1]!;
    this.#batches = this.#batches.slice(drop);
    this.#start = Math.max(this.#start, upTo);
    this.#startMs = Math.max(this.#startMs, upToMs);
    const held = this.#options.held ?? (() => true);
    for (const [path, entry] of this.#entries) {
      const kept = entry.steps.filter((s) => s.pos > upTo);
      if (kept.length === 0 && entry.steps.length === 0 && held(path)) this.#delete(path);
      if (kept.length === entry.steps.length) continue;
      entry.base = stateAt(entry, upTo);
      this.#steps -= entry.steps.length - kept.length;
      this.#bytes -= STEP_BYTES * (entry.steps.length - kept.length);
      entry.steps = kept;
      // Gone, or held by the index: nothing to keep. Else it is known only here.
      if (kept.length === 0 && (entry.base === null || held(path))) this.#delete(path);
    }
  }
}
