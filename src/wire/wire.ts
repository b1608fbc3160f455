/**
 * What a session and an index service say to each other over its unix socket: one JSON
 * object a line, each way, in the order written (contract §28a); how the lines are written
 * and read is lines.ts.
 *
 * @module
 */
import type { SearchRequest } from "../query/mod.ts";
import type { ScanOutcome, ScanProgress } from "../walk/mod.ts";
import type { IndexStatus } from "../index/mod.ts";
import type { JournalAnswer, JournalQuery } from "../index/mod.ts";

/** How long a call waits its turn at the service's index before its session walks. */
export const TURN_WAIT_MS = 30_000;

/** One root a service is started for: its real path and its service's name. */
export interface ServiceRoot {
  /** The root's real path. */
  root: string;
  /** Its name (socket_folder.ts): its socket is `<folder>/<name>.sock`, its lock beside it. */
  name: string;
}

/**
 * What a service is started with (its command line, as JSON): the roots it is to hold
 * (those of the session that starts it that no service of its build holds yet), and the
 * settings they share (every root's name is a hash of them).
 */
export interface ServiceSettings {
  roots: ServiceRoot[];
  version: string;
  /** The program's build (build.ts): a service serves sessions of its own build only. */
  build: string;
  folder: string;
  idleMs: number;
  maxEntries: number;
  maxDepth: number;
  changes: { maxEntries: number; maxAgeMs: number };
}

/** A root's journal as the service last answered (its run names its clocks). */
export interface JournalMark {
  epoch: number;
  position: number;
  run: string;
}

/** From a session (or from `file-time-search status` and `stop`: `about` and `stop`). */
export type ToService =
  /** `idleMs`: how long the session asks its service to live on after its last session. */
  | { t: "hello"; version: string; build: string; name: string; idleMs?: number }
  /**
   * `walkCost`: what the session's last walk of the whole root cost, which a call during the
   * root's build weighs against what is left of it (index/build_wait.ts).
   */
  | {
    t: "scan";
    id: number;
    request: SearchRequest;
    keepAll: number;
    walkCost?: { entries: number; ms: number };
  }
  | { t: "cancel"; id: number }
  | { t: "journal"; id: number; query: JournalQuery }
  | { t: "status"; id: number }
  /**
   * The session walks a call on this root now (its index not ready, or the service not yet
   * reached when the walk began): the build gives way to it until `release` (contract §28a).
   */
  | { t: "hold"; id: number }
  | { t: "release"; id: number }
  /** What the service is (no hello needed: `file-time-search status`). */
  | { t: "about" }
  /** End now, as at the idle end (`file-time-search stop`). */
  | { t: "stop" };

/** A tool error as it travels (its code, message, fix and details). */
export interface WireError {
  code: string;
  message: string;
  fix: string;
  details: string[];
}

/** What the service says of itself (to a session: of the root it connected for). */
export interface ServiceFacts {
  pid: number;
  /** Its build (build.ts). */
  build: string;
  run: string;
  startedAt: number;
  /** Sessions connected for this root (in `about`: for every root). */
  sessions: number;
  /** Ends this long after its last session (ms); 0: with it. */
  idleMs: number;
  /**
   * Its resident set size now, in bytes (in a `status` reply): what holds a shared root's
   * index, which `fs.list_roots` says apart from the session's own (contract §23a).
   */
  rssBytes?: number;
}

/** One root of a service, as `about` gives it. */
export interface AboutRoot {
  root: string;
  /** Its index's state and entries. */
  state: string;
  entries: number;
  /** Sessions connected for it now. */
  sessions: number;
}

/** What `about` answers: the facts, and what `status` shows a person. */
export interface ServiceAbout extends ServiceFacts {
  version: string;
  roots: AboutRoot[];
  /** Its resident set size in bytes (`status` reads its PSS itself where it can). */
  memoryBytes: number;
  /** When it ends if no session comes (epoch ms); `null` while sessions are connected. */
  idleEndsAt: number | null;
  /** Connections it could not accept (out of file descriptors: EMFILE), and the last one's why. */
  unaccepted?: { count: number; last: string; at: number };
}

/** From a service. */
export type FromService =
  | { t: "hello"; version: string; build: string; facts: ServiceFacts }
  | { t: "refused"; why: string }
  | { t: "about"; about: ServiceAbout }
  | { t: "stopping" }
  | { t: "progress"; id: number; progress: ScanProgress }
  /** The call still waits its turn at the index (said each second): the service lives. */
  | { t: "waiting"; id: number }
  | {
    t: "scan";
    id: number;
    outcome?: ScanOutcome;
    /** Why the index did not answer (while it is built, with its progress): the session walks. */
    walk?: string;
    /** With `outcome`: the service walked the call, and why its index did not answer. */
    walked?: string;
    error?: WireError;
    journal: JournalMark | null;
  }
  | {
    t: "journal";
    id: number;
    answer?: JournalAnswer;
    epoch?: number;
    run?: string;
    why?: string;
    /** The journal as of the answer (the session's next clocks name it). */
    journal?: JournalMark | null;
  }
  | {
    t: "status";
    id: number;
    status: IndexStatus;
    facts: ServiceFacts;
    journal?: JournalMark | null;
  };
