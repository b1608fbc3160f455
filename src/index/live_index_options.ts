/**
 * What a {@linkcode LiveIndex} is told when it is made, and what it says of each root.
 *
 * @module
 */
import type { Clock } from "../ports/mod.ts";
import type { HungRoots } from "../workers/mod.ts";
import type { PrivateFolder, ReadFromDisk } from "./watch/mod.ts";

/** Where a root's index stands, for `fs.list_roots` and the logs. */
export interface IndexStatus {
  /**
   * `starting`: the watch is being set up; `building`: the index is being filled (calls
   * walk); `ready`: answers come from the index; `off`: calls walk, for `reason`.
   */
  state: "off" | "starting" | "building" | "ready";
  /** Entries the index holds (while building: read so far). */
  entries: number;
  /** Why it is off, or why its watch is set up or its index built again. */
  reason?: string;
  /** Calls on this root since the server started: answered by the index, or by a walk. */
  answers: { index: number; walk: number };
  /** Why the last call on this root that walked did (contract §18: who answered). */
  lastWalk?: string;
  /**
   * When the index was last checked whole on disk (RFC 3339): every folder and entry it
   * holds was checked at or after it (contract §18, as of its last answer).
   */
  checkedWhole?: string;
  /** When the round that `checkedWhole` began ended (RFC 3339). */
  checkEnded?: string;
  /**
   * Folders its watch leaves out, read from disk by every scan (contract §18, "The watch's
   * reach", "FIFOs and devices"), and why: the links out and the FIFOs or device files
   * found on their way. Absent when the watch leaves none out.
   */
  readFromDisk?: { folders: number } & ReadFromDisk;
  /**
   * Whether the root's index is shared with every session (contract §28): its service's
   * sessions, when it started and its build (contract §28a), or why this server keeps its
   * own (or walks meanwhile).
   */
  shared?: { sessions: number; since: string; build: string; rssBytes?: number } | {
    reason: string;
  };
  /**
   * What the index costs, as of its last answer (contract §4): the runtime watches it holds
   * (one per folder watched) and the bytes its worker holds (heap in use and columns).
   */
  watches?: number;
  memoryBytes?: number;
  /**
   * Its journal of changes (contract §24), as of its last answer: the position now, the
   * first one answered exactly (`null`: none yet), the steps kept and their heap bytes.
   */
  journal?: { position: number; start: number | null; steps: number; memoryBytes: number };
}

/** Where a root's index stands, without its calls. */
export type RootState = Pick<
  IndexStatus,
  | "state"
  | "entries"
  | "reason"
  | "checkedWhole"
  | "checkEnded"
  | "readFromDisk"
  | "watches"
  | "memoryBytes"
  | "journal"
>;

/** Options of {@linkcode LiveIndex}. */
export interface LiveIndexOptions {
  /** Every root and real path the workers may read. */
  readPaths: string[];
  /**
   * V8's heap limit of an isolate of this process in bytes (`node:v8`'s `heap_size_limit`,
   * the same in every worker), which each index worker's memory budget is a share of.
   * Default: the start task's, which a service always runs with (`DEFAULT_HEAP_LIMIT`): a
   * service reads no `node:` module (the first starts Deno's Node layer in its isolate).
   */
  heapLimit?: number;
  /** `INDEX_MAX_ENTRIES`: past it a root is scanned as with the index off. */
  maxEntries: number;
  /** Start every root's watch and index now (`INDEX=on`), not on its first call. Default false. */
  eager?: boolean;
  /** How deep the fill goes (`MAX_DEPTH`). Default 256. */
  maxDepth?: number;
  /** One line for the logs, once per change of a root's state. */
  log(level: "info" | "warning", message: string): void;
  /** How long past `SCAN_TIMEOUT_MS` a silent worker is given. Default 1000 ms. */
  graceMs?: number;
  /** How long a call waits for its root's index (busy with another call) before it walks. Default 1000 ms. */
  waitMs?: number;
  /**
   * The server's private folder (contract §13), where each root's watch worker writes its
   * barrier cookies; none: no answer could be proved up to date, so every root walks.
   */
  cookies: PrivateFolder;
  /** The kernel's event queue length (cookies.ts). Default: the kernel's default. */
  queueLimit?: number;
  /** How long a barrier may take before the call walks and the watch is restarted. Default 2000 ms. */
  barrierMs?: number;
  /**
   * Whether a root's index answers one question nobody asked right after it is ready (warm_up.ts).
   *
   * @default {true}
   */
  warmUp?: boolean;
  /** How long after a failed or broken watch it is tried again. Default 60 s. */
  retryMs?: number;
  /** How long a fill that failed waits before it is tried again, doubled each time. Default 500 ms. */
  refillMs?: number;
  /** The memory of hung roots, shared with the walks. Default: its own. */
  hungRoots?: HungRoots;
  /** When calls are made. Default the system clock. */
  clock?: Clock;
  /** The watch worker's module. Default: the real one. */
  watchWorkerUrl?: URL;
  /** The index worker's module. Default: the real one. */
  indexWorkerUrl?: URL;
  /** The fill helper's module (fill_worker.ts). Default: the real one. */
  fillWorkerUrl?: URL;
  /** Each root's journal's bounds (`CHANGES_MAX_ENTRIES`, `CHANGES_MAX_AGE`). Default: contract §24's. */
  changes?: { maxEntries: number; maxAgeMs: number };
  /** Told of every batch of changes once it is on its way to the index (for tests). */
  onChanges?: (paths: string[], rescan: boolean) => void;
}
