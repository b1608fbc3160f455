/**
 * The live index's causal barrier and its count of what may have been lost (contract §18),
 * as the watch worker keeps them, apart from the runtime: which event is a cookie the
 * worker wrote in the root's private folder, which barriers it passes, and when a run of
 * events was long enough to have overflowed the kernel's queue.
 *
 * Why a cookie is a barrier: the private folder is watched by the same `Deno.watchFs`
 * call as the root, so both reach the worker through one watcher and one queue, in the
 * order the kernel queued them; every change that completed before the cookie was written
 * was queued before it. When the cookie's event is read, every event before it has been
 * read too (or the runtime flagged a loss, `rescan`, ahead of later events).
 *
 * Why the count bounds the kernel's queue: the runtime does not pass the kernel's overflow
 * marker on, so the worker counts. If at some instant `L` events were pending in the
 * kernel, take the last cookie read before the last of them: it was written before that
 * instant (a later one would sit behind them), when fewer events had been read than the
 * first of them is numbered. So once the last of them is read, at least `L` events were
 * read since that cookie was written. The worker therefore flags a possible loss whenever
 * it has read `limit` events since the write of the last cookie it read back, and writes a
 * cookie of its own (a fence) every {@linkcode FENCE_EVERY} events, so that a long burst
 * read as fast as it comes is not taken for one. Only a cookie read back counts: one
 * written while the kernel's queue was full is dropped with the events around it, and a
 * later cookie read back before it ever is says so (a loss, for certain).
 *
 * @module
 */

/** The kernel's queue on Linux holds this many events unless raised (`max_queued_events`). */
export const DEFAULT_QUEUE_LIMIT = 16_384;
/** A fence cookie is written after this many events read since the last one. */
export const FENCE_EVERY = 1_024;
/** Fences out at once, at most (one written while the kernel's queue is full is dropped). */
const MOST_FENCES = 64;
/**
 * How many events in the kernel's queue one event read may stand for: the runtime opens the
 * path an event names and a watched folder to compare them (`same_file::is_same_file`),
 * and each open is one more event in the queue, which it then drops (measured: 20,000
 * times changed gave 16,872 events and no loss flagged by the runtime, while a plain
 * inotify reader got all 20,000).
 */
export const EVENTS_PER_READ = 4;

/** What one event read from the runtime is, to the watch worker. */
export interface EventRead {
  /** The barriers (their ids) the event passes: every one whose cookie came back. */
  passed: number[];
  /** Whether it is one of the worker's own cookies (not a change under the root). */
  cookie: boolean;
  /** The cookie read back for the first time (to remove), or `null`. */
  back: string | null;
  /** Enough events were read since the last fence to have overflowed the kernel's queue. */
  overflowed: boolean;
}

/** The cookies of one root's watch, and the count of events read since the last fence. */
export class Cookies {
  readonly #prefix: string;
  readonly #tag: string;
  readonly #limit: number;
  readonly #fenceEvery: number;
  /** Events read, cookies included. */
  #read = 0;
  /** Events read when the last cookie read back was written. */
  #fence = 0;
  #next = 1;
  /** Cookies written and not read back: their number, events read when written, barrier id. */
  readonly #out = new Map<number, { at: number; barrier: number | null }>();
  /** Events read when the last cookie was written. */
  #lastWrite = 0;

  /**
   * `dir`: the real path of the root's private folder, as the runtime reports events in it;
   * `limit`: the kernel queue's length; `sep`: the path separator; `tag`: what this watch's
   * cookie names start with, apart from every other's (a watch let go after a FIFO appeared
   * writes one at close, which may land in the folder its successor writes in).
   */
  constructor(dir: string, limit: number, sep: string, fenceEvery = FENCE_EVERY, tag = "") {
    this.#prefix = dir + sep;
    this.#tag = tag;
    this.#limit = limit;
    this.#fenceEvery = fenceEvery;
  }

  /**
   * A cookie to write now, for barrier `barrier` (or `null`: a fence): its absolute path.
   * Call it just before writing the file.
   */
  cookie(barrier: number | null): string {
    const n = this.#next++;
    this.#out.set(n, { at: this.#read, barrier });
    this.#lastWrite = this.#read;
    return this.#prefix + this.#tag + n;
  }

  /** Whether a fence is due (enough events were read since the last cookie was written). */
  get fenceDue(): boolean {
    return this.#out.size < MOST_FENCES && this.#read - this.#lastWrite >= this.#fenceEvery;
  }

  /** Barriers waiting for their cookie. */
  get waiting(): number {
    let n = 0;
    for (const out of this.#out.values()) if (out.barrier !== null) n++;
    return n;
  }

  /** Reads one event, with its paths as the runtime gives them. */
  read(paths: readonly string[]): EventRead {
    this.#read++;
    const passed: number[] = [];
    let cookie = false;
    let skipped = false;
    let back: string | null = null;
    for (const path of paths) {
      if (!path.startsWith(this.#prefix)) continue;
      cookie = true; // another watch's too: never a change
      const name = path.slice(this.#prefix.length);
      if (!name.startsWith(this.#tag)) continue;
      const n = Number(name.slice(this.#tag.length));
      const out = this.#out.get(n);
      if (out === undefined) continue; // its later events, or its removal
      back = path;
      // Only a cookie read back is a fence (the argument above needs its event).
      this.#fence = Math.max(this.#fence, out.at);
      // Cookies are queued in the order written: one read back passes every earlier one,
      // and an earlier one never read back was dropped: events were lost.
      for (const [m, earlier] of this.#out) {
        if (m > n) break;
        if (m < n) skipped = true;
        if (earlier.barrier !== null) passed.push(earlier.barrier);
        this.#out.delete(m);
      }
    }
    const overflowed = skipped || (this.#read - this.#fence) * EVENTS_PER_READ >= this.#limit;
    if (overflowed) this.#fence = this.#read; // said once per run
    return { passed, cookie, back, overflowed };
  }
}

/**
 * The length of the kernel's event queue (Linux: `fs.inotify.max_queued_events`), read
 * where the server may read it, else {@linkcode DEFAULT_QUEUE_LIMIT}.
 */
export function kernelQueueLimit(): number {
  const path = "/proc/sys/fs/inotify/max_queued_events";
  if (Deno.build.os !== "linux") return DEFAULT_QUEUE_LIMIT;
  try {
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") {
      return DEFAULT_QUEUE_LIMIT;
    }
    const limit = Number.parseInt(Deno.readTextFileSync(path).trim(), 10);
    return Number.isSafeInteger(limit) && limit > 0 ? limit : DEFAULT_QUEUE_LIMIT;
  } catch {
    return DEFAULT_QUEUE_LIMIT;
  }
}
