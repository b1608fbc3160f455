/**
 * The channel of a fill's feed (contract §18, docs/index.md "The fill on two cores"): one
 * writer (the fill helper), one reader (the index worker), chunks of bytes through a ring
 * on a `SharedArrayBuffer`. The index worker's walk never yields to its event loop, so it
 * could not read messages while it fills; it reads the ring between two entries instead,
 * and never waits for it: what is not there yet it reads from disk itself. The writer
 * waits while the ring is full, so the feed never runs further ahead than the ring holds.
 *
 * The ring's state says when the writer may start (`go`: only once the reader is ready to
 * hear of changes) and when it is to stop.
 *
 * @module
 */

/** Where the ring stands: written, read (byte counts, wrapping), and its state. */
const WRITTEN = 0;
const READ = 1;
const STATE = 2;
const HEADER_BYTES = 16;

const WAITING = 0;
const GO = 1;
const STOPPED = 2;

/** How long a writer waits at a time before it looks at the state again. */
const WAIT_MS = 50;

/** The default size of a ring: enough for a folder of about 30,000 entries in one chunk. */
export const FEED_RING_BYTES = 1 << 20;

/** A new ring of `bytes` (a power of two) for one fill. */
export function newFeedRing(bytes = FEED_RING_BYTES): SharedArrayBuffer {
  if (bytes & (bytes - 1)) throw new RangeError("a feed ring's size is a power of two");
  return new SharedArrayBuffer(HEADER_BYTES + bytes);
}

/** Tells the writer of `ring` to stop (whoever holds the ring may). */
export function stopFeed(ring: SharedArrayBuffer): void {
  const header = new Int32Array(ring, 0, 4);
  Atomics.store(header, STATE, STOPPED);
  Atomics.notify(header, STATE);
  Atomics.notify(header, READ);
}

/** One end of a ring. */
class RingEnd {
  protected readonly header: Int32Array;
  protected readonly data: Uint8Array;
  protected readonly mask: number;

  constructor(ring: SharedArrayBuffer) {
    this.header = new Int32Array(ring, 0, 4);
    this.data = new Uint8Array(ring, HEADER_BYTES);
    this.mask = this.data.length - 1;
  }

  /** Whether the writer is to stop. */
  get stopped(): boolean {
    return Atomics.load(this.header, STATE) === STOPPED;
  }
}

/** The writer's end. */
export class FeedWriter extends RingEnd {
  readonly #length = new Uint8Array(4);

  /** Waits until the reader says go (true), or until told to stop or `stop()` says so (false). */
  waitForGo(stop: () => boolean): boolean {
    for (;;) {
      const state = Atomics.load(this.header, STATE);
      if (state === GO) return true;
      if (state === STOPPED || stop()) return false;
      Atomics.wait(this.header, STATE, state, WAIT_MS);
    }
  }

  /** The most bytes one chunk may hold. */
  get capacity(): number {
    return this.data.length - 4;
  }

  /**
   * Writes one chunk once there is room for it: false when told to stop meanwhile, or
   * when the chunk could never fit.
   */
  push(chunk: Uint8Array): boolean {
    const need = chunk.length + 4;
    if (need > this.data.length) return false;
    let written: number;
    for (;;) {
      if (this.stopped) return false;
      written = Atomics.load(this.header, WRITTEN);
      const read = Atomics.load(this.header, READ);
      if (this.data.length - ((written - read) | 0) >= need) break;
      Atomics.wait(this.header, READ, read, WAIT_MS);
    }
    new DataView(this.#length.buffer).setUint32(0, chunk.length);
    this.#copyIn(written, this.#length);
    this.#copyIn(written + 4, chunk);
    Atomics.store(this.header, WRITTEN, (written + need) | 0);
    return true;
  }

  #copyIn(at: number, bytes: Uint8Array): void {
    const start = at & this.mask;
    const first = Math.min(bytes.length, this.data.length - start);
    this.data.set(bytes.subarray(0, first), start);
    if (first < bytes.length) this.data.set(bytes.subarray(first), 0);
  }
}

/** The reader's end. */
export class FeedReader extends RingEnd {
  /** Lets the writer start. */
  go(): void {
    Atomics.compareExchange(this.header, STATE, WAITING, GO);
    Atomics.notify(this.header, STATE);
  }

  /** Tells the writer to stop. */
  stop(): void {
    stopFeed(this.header.buffer as SharedArrayBuffer);
  }

  /** The next chunk written, copied out of the ring; `null` when none is there now. */
  pull(): Uint8Array | null {
    const written = Atomics.load(this.header, WRITTEN);
    const read = Atomics.load(this.header, READ);
    if (written === read) return null;
    const length = new DataView(this.#copyOut(read, 4).buffer).getUint32(0);
    const chunk = this.#copyOut(read + 4, length);
    Atomics.store(this.header, READ, (read + 4 + length) | 0);
    Atomics.notify(this.header, READ);
    return chunk;
  }

  #copyOut(at: number, length: number): Uint8Array {
    const out = new Uint8Array(length);
    const start = at & this.mask;
    const first = Math.min(length, this.data.length - start);
    out.set(this.data.subarray(start, start + first), 0);
    if (first < length) out.set(this.data.subarray(0, length - first), first);
    return out;
  }
}
