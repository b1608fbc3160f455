/**
 * What a session and a root's index service say to each other over its unix socket: one
 * JSON object a line, each way, in the order written. Read with `conn.read()` (the
 * connection's `readable` would close it whole at the peer's end of writing).
 *
 * @module
 */
import type { SearchRequest } from "../query/mod.ts";
import type { ScanOutcome, ScanProgress } from "../walk/mod.ts";
import type { IndexStatus } from "../index/mod.ts";
import type { JournalAnswer, JournalQuery } from "../index/mod.ts";

/** How long a call waits its turn at the service's index before its session walks. */
export const TURN_WAIT_MS = 30_000;

/** A root's journal as the service last answered (its run names its clocks). */
export interface JournalMark {
  epoch: number;
  position: number;
  run: string;
}

/** From a session. */
export type ToService =
  | { t: "hello"; version: string; name: string }
  | { t: "scan"; id: number; request: SearchRequest; keepAll: number }
  | { t: "cancel"; id: number }
  | { t: "journal"; id: number; query: JournalQuery }
  | { t: "status"; id: number };

/** A tool error as it travels (its code, message, fix and details). */
export interface WireError {
  code: string;
  message: string;
  fix: string;
  details: string[];
}

/** What the service says of itself. */
export interface ServiceFacts {
  pid: number;
  run: string;
  startedAt: number;
  sessions: number;
  /** Ends this long after its last session (ms); 0: with it. */
  idleMs: number;
}

/** From a service. */
export type FromService =
  | { t: "hello"; version: string; facts: ServiceFacts }
  | { t: "refused"; why: string }
  | { t: "progress"; id: number; progress: ScanProgress }
  /** The call still waits its turn at the index (said each second): the service lives. */
  | { t: "waiting"; id: number }
  | {
    t: "scan";
    id: number;
    outcome?: ScanOutcome;
    /** Why the index did not answer: the session walks. */
    walk?: string;
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

/** Writes one message (a line); rejects if the peer is gone. */
export async function send(conn: Deno.Conn, message: ToService | FromService): Promise<void> {
  const bytes = encoder.encode(JSON.stringify(message) + "\n");
  for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
}

/** The most one line may take (a page of matches and its cut is far less). */
const MAX_LINE = 64 * 1024 * 1024;

/** Each message the peer sends, until it ends; throws on a line past {@linkcode MAX_LINE}. */
export async function* messages<T>(conn: Deno.Conn): AsyncGenerator<T> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(64 * 1024);
  let pending = "";
  let searched = 0; // `pending` up to here holds no line's end
  for (;;) {
    let n: number | null;
    try {
      n = await conn.read(buffer);
    } catch {
      return; // closed under the read
    }
    if (n === null) return;
    pending += decoder.decode(buffer.subarray(0, n), { stream: true });
    if (pending.length > MAX_LINE) throw new Error("a message was too long");
    for (let end = pending.indexOf("\n", searched); end >= 0; end = pending.indexOf("\n")) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (line.trim() !== "") yield JSON.parse(line) as T;
    }
    searched = pending.length; // a long line is looked through once, not once per read
  }
}
