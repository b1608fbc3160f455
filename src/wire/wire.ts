/**
 * What a session and an index service say to each other over its unix socket: one JSON
 * object a line, each way, in the order written (contract §28a). Every message to a
 * connection goes through its one {@linkcode Writer}, so a message is never written inside
 * another; lines are read in time linear in their length, each bounded in size (and, where
 * the reader asks, in how long a started line may take), and a line that cannot be read
 * ends the reading: the caller ends that connection and nothing else. Read with
 * `conn.read()` (the connection's `readable` would close it whole at the peer's end of
 * writing).
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

const encoder = new TextEncoder();

/**
 * A connection's one way to write: each message is written whole before the next one
 * starts, in the order sent. A failed write fails that message and every later one.
 */
export class Writer {
  readonly #conn: Deno.Conn;
  #tail: Promise<void> = Promise.resolve();
  #failed: unknown = null;

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  /** Writes one message (a line) after those sent before; rejects if the peer is gone. */
  send(message: ToService | FromService): Promise<void> {
    const bytes = encoder.encode(JSON.stringify(message) + "\n");
    const written = this.#tail.then(async () => {
      if (this.#failed !== null) throw this.#failed;
      try {
        for (let done = 0; done < bytes.length;) {
          done += await this.#conn.write(bytes.subarray(done));
        }
      } catch (err) {
        this.#failed = err;
        throw err;
      }
    });
    this.#tail = written.catch(() => {});
    return written;
  }
}

/** The most one line may take by default (a page of matches and its cut is far less). */
export const MAX_LINE = 64 * 1024 * 1024;

/** Why a connection's lines can no longer be read: the caller ends the connection. */
export class LineError extends Error {
  constructor(why: string) {
    super(why);
    this.name = "LineError";
  }
}

/** How lines are read. */
export interface ReadOptions {
  /** The most bytes one line may take. @default {MAX_LINE} */
  maxLine?: number;
  /** How long a line, once begun, may take to end (ms); none by default. */
  lineMs?: number;
}

/**
 * Each message the peer sends, until it ends. Throws a {@linkcode LineError} on a line
 * that is not JSON, one past `maxLine`, or one not ended within `lineMs`; the bytes of a
 * line are looked through once and decoded once.
 */
export async function* messages<T>(
  conn: Deno.Conn,
  options: ReadOptions = {},
): AsyncGenerator<T> {
  const maxLine = options.maxLine ?? MAX_LINE;
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = []; // the line begun so far
  let size = 0;
  let late = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    for (;;) {
      if (options.lineMs !== undefined && size > 0 && timer === undefined) {
        timer = setTimeout(() => {
          late = true;
          try {
            conn.close();
          } catch { /* closed */ }
        }, options.lineMs);
      }
      const buffer = new Uint8Array(64 * 1024);
      let n: number | null;
      try {
        n = await conn.read(buffer);
      } catch {
        n = null; // closed under the read
      }
      if (late) throw new LineError("a line was not ended in time");
      if (n === null) return;
      const got = buffer.subarray(0, n);
      let start = 0;
      for (let end = got.indexOf(10); end >= 0; end = got.indexOf(10, start)) {
        parts.push(got.subarray(start, end));
        size += end - start;
        if (size > maxLine) throw new LineError("a line was too long");
        const line = join(parts, size);
        parts = [];
        size = 0;
        clearTimeout(timer);
        timer = undefined;
        start = end + 1;
        const text = decoder.decode(line);
        if (text.trim() === "") continue;
        let message: T;
        try {
          message = JSON.parse(text) as T;
        } catch {
          throw new LineError("a line was not JSON");
        }
        yield message;
      }
      if (start < n) {
        parts.push(got.subarray(start));
        size += n - start;
        if (size > maxLine) throw new LineError("a line was too long");
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The parts of one line, as one array. */
function join(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
