/**
 * How a session and an index service write and read their lines (contract §28a): every
 * message to a connection goes through its one {@linkcode Writer}, so a message is never
 * written inside another; lines are read in time linear in their length, each bounded in
 * size (and, where the reader asks, in how long a started line may take), and a line that
 * cannot be read ends the reading: the caller ends that connection and nothing else. Read
 * with `conn.read()` (the connection's `readable` would close it whole at the peer's end of
 * writing).
 *
 * @module
 */
import type { FromService, ToService } from "./wire.ts";

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
    return this.sendLine(JSON.stringify(message));
  }

  /** Writes one message already made a line of JSON (`line`, its newline not included). */
  sendLine(line: string): Promise<void> {
    const bytes = encoder.encode(line + "\n");
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
 * that is not JSON, one past `maxLine`, or one not ended within `lineMs`.
 */
export async function* messages<T>(
  conn: Deno.Conn,
  options: ReadOptions = {},
): AsyncGenerator<T> {
  for await (const line of lines(conn, options)) yield parseLine<T>(line);
}

/** One line's message; a {@linkcode LineError} if it is not JSON. */
export function parseLine<T>(line: string): T {
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new LineError("a line was not JSON");
  }
}

/**
 * Each line the peer sends that is not blank, as text, until it ends. Throws a
 * {@linkcode LineError} on a line past `maxLine`, or one not ended within `lineMs`; the
 * bytes of a line are looked through once and decoded once.
 */
export async function* lines(
  conn: Deno.Conn,
  options: ReadOptions = {},
): AsyncGenerator<string> {
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
        if (text.trim() !== "") yield text;
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
