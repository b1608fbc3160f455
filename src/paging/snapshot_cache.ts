/**
 * Short-lived snapshots of a result set, so that paging through it costs one scan
 * instead of one scan per page; only the paging module uses them. Memory stays
 * bounded: few snapshots, few items each, and each expires soon. A cursor never
 * depends on a snapshot: when one is gone, the next page comes from a scan that gives
 * the same items (contract §10).
 *
 * @module
 */
import type { Clock } from "../ports/mod.ts";
import type { Match } from "../walk/mod.ts";
import type { SortKey } from "../query/mod.ts";

/** Options of {@linkcode SnapshotCache}; the defaults suit a desktop machine. */
export interface SnapshotCacheOptions {
  /** How long a snapshot serves pages. Default 60 000 ms. */
  ttlMs?: number;
  /** Items kept across all snapshots; the oldest go first. Default 150 000. */
  maxItems?: number;
}

/** A snapshot: the matches after a key, in the query's order, and whether they run to the end. */
export interface Snapshot {
  /** The key the snapshot starts after: it holds nothing at or before it. */
  after: SortKey;
  matches: Match[];
  /** False when the snapshot stops short of the end (a path_asc scan cut at the cap). */
  complete: boolean;
  /** Matches of the whole query, when the scan that took the snapshot saw them all. */
  total: number | null;
}

interface Entry extends Snapshot {
  expires: number;
}

/** Snapshots keyed by query hash and sort. */
export class SnapshotCache {
  /** The most items one scan collects for a snapshot. */
  readonly maxItems: number;
  readonly #ttlMs: number;
  readonly #clock: Clock;
  /** Insertion order is age order. */
  readonly #entries = new Map<string, Entry>();
  #items = 0;

  constructor(clock: Clock, options: SnapshotCacheOptions = {}) {
    this.#clock = clock;
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.maxItems = options.maxItems ?? 150_000;
  }

  /** The snapshot for `key`, if it is still fresh. */
  get(key: string): Snapshot | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.#clock.now() >= entry.expires) {
      this.#delete(key, entry);
      return undefined;
    }
    return entry;
  }

  /** Keeps a snapshot (its matches sorted in the query's order) under `key`. */
  put(key: string, snapshot: Snapshot): void {
    const { matches } = snapshot;
    if (matches.length > this.maxItems) return;
    const old = this.#entries.get(key);
    if (old) this.#delete(key, old);
    for (const [k, e] of this.#entries) {
      if (this.#items + matches.length <= this.maxItems) break;
      this.#delete(k, e);
    }
    this.#entries.set(key, { ...snapshot, expires: this.#clock.now() + this.#ttlMs });
    this.#items += matches.length;
  }

  #delete(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#items -= entry.matches.length;
  }
}
