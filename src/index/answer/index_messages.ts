/**
 * The messages between the server and a root's index worker (contract §18), besides scan
 * tasks: what it is told (record, take a feed, forget changes) and what it reports with
 * each answer.
 *
 * @module
 */
import type { Change, LagNews, UnseenMove } from "../watch/mod.ts";
import type { JournalAnswer, JournalBounds, JournalQuery } from "../journal/mod.ts";

/** An index worker's report on its index, sent with each answer (contract §18). */
export interface IndexReport {
  /** Entries the index holds (when it overflowed: held then). */
  entries: number;
  /** The index's memory budget in bytes (from the worker's heap). */
  budgetBytes: number;
  /** What the index worker holds now: its heap in use and the columns outside it (bytes). */
  memoryBytes: number;
  /** Folders held under the watch: one runtime watch each (contract §4, "what it costs"). */
  watches: number;
  /** The index passed `INDEX_MAX_ENTRIES` or its memory budget and was dropped. */
  overflowed: "entries" | "memory" | null;
  /** It met a FIFO or device file, which the runtime's watcher would open (contract §18). */
  special: boolean;
  /**
   * A folder it could not list before was listed: the runtime's watch did not take it then
   * and does not now, so the root's watch is set up again.
   */
  opened: boolean;
  /**
   * A held folder was found on another device or inode (a file system mounted over it, or
   * unmounted): the runtime's watch does not reach into it, so the root's watch is set up
   * again.
   */
  mounted: boolean;
  /**
   * Its journal (contract §24): the position now, the first one answered exactly
   * (`null` before the journal begins or after a loss), the steps kept and their memory.
   */
  journal: { position: number; start: number | null; steps: number; bytes: number };
}

/** An index worker's heap limit until it is told its own: the start task's (140 MiB). */
export const DEFAULT_HEAP_LIMIT = 140 * 1024 * 1024;

/** Server to index worker. */
export type IndexControl =
  /**
   * Keep what scans read from now on (the watcher runs), up to `maxEntries`; the
   * `unwatched` folders are read from disk by every scan (watch_plan.ts).
   */
  | {
    type: "record";
    maxEntries: number;
    unwatched: readonly string[];
    /**
     * The isolate's heap limit in bytes (V8's `heap_size_limit`, the same in every isolate of
     * the process), read where the worker is started. Default: {@linkcode DEFAULT_HEAP_LIMIT}.
     */
    heapLimit?: number;
    /** The bounds of the root's journal of changes (contract §24). Default: none. */
    journal?: JournalBounds;
    /**
     * The share of one core its background check may use (the server's, split among its
     * roots: background_check.ts). Default: the whole server's.
     */
    checkShare?: number;
    /**
     * The calls running now (call_gate.ts, on a `SharedArrayBuffer`): the folders answers owe
     * the check wait while any runs (folder_sweep.ts). Default: none known, never waited for.
     */
    running?: Int32Array;
  }
  /**
   * Take what a fill helper writes into `ring` while the fill of `root` (its real path)
   * runs (fed_fs.ts); `null`: the fill is over.
   */
  | { type: "feed"; ring: SharedArrayBuffer | null; root: string }
  /**
   * Forget what these changes name; `rescan`: forget everything; and the folders the
   * runtime's watcher may not reach yet, read from disk until it does (watch_lag.ts).
   */
  | ({ type: "changes"; changes: Change[]; rescan: boolean } & LagNews)
  /** The index became ready at `at` (epoch ms): its journal answers from then on (§24). */
  | { type: "journal"; at: number }
  /** A changes call's question to the journal (answered by a {@linkcode JournalReply}). */
  | { type: "since"; id: number; query: JournalQuery };

/**
 * Index worker to server, unasked: a round of its background check ended (epoch ms): every
 * held folder and entry was checked on disk at or after `wholeSince` (contract §18).
 */
export interface CheckedMessage {
  type: "checked";
  wholeSince: number;
  ended: number;
}

/**
 * Index worker to server, unasked: folders found moved with only their old name given, whose
 * runtime watch may be lost; the server asks the root's watch to hold them (held_watches.ts).
 */
export interface HoldMessage {
  type: "hold";
  moves: UnseenMove[];
}

/** Index worker to server: the answer to a `since` question, with the index's report. */
export interface JournalReply {
  type: "since";
  id: number;
  answer: JournalAnswer;
  report: IndexReport;
}
