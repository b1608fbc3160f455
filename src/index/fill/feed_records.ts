/**
 * What a fill's feed carries (docs/index.md "The fill on two cores"): a folder's listing
 * (its names and kinds) and an entry's stat (kind, times, size), each under the absolute
 * path the walk reads it by, packed into chunks for the ring (feed_ring.ts) and read back
 * on the other side. A record that could not fit a chunk is left out: the index reads
 * whatever the feed does not bring from disk itself.
 *
 * @module
 */
import { birthTime, kindOf, UNKNOWN_TIME } from "../store/mod.ts";
import type { FeedWriter } from "./feed_ring.ts";

const LIST = 1;
const STAT = 2;

/** Bytes a chunk is sent at: small enough that the reader sees the feed soon. */
const CHUNK_BYTES = 16 * 1024;

/** A listing as the feed brings it. */
export interface FedListing {
  names: string[];
  kinds: number[];
}

/**
 * A stat as the feed brings it: times in epoch ms, `UNKNOWN_TIME` when not known; the device
 * and inode (a folder's check compares them: a mount changes them).
 */
export interface FedStat {
  kind: number;
  mtime: number;
  birth: number;
  size: number;
  dev: number;
  ino: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Packs records into chunks and pushes them into the ring. */
export class RecordWriter {
  readonly #ring: FeedWriter;
  #bytes = new Uint8Array(CHUNK_BYTES);
  #view = new DataView(this.#bytes.buffer);
  #at = 0;

  constructor(ring: FeedWriter) {
    this.#ring = ring;
  }

  /** A folder's listing, read from disk at `path`. */
  list(path: string, entries: readonly Deno.DirEntry[]): void {
    let most = 9 + 3 * path.length;
    for (const entry of entries) most += 3 + 3 * entry.name.length;
    if (!this.#room(most)) return;
    const start = this.#at;
    this.#byte(LIST);
    this.#string(path);
    this.#view.setUint32(this.#at, entries.length);
    this.#at += 4;
    for (const entry of entries) {
      this.#byte(kindOf(entry));
      const at = this.#at;
      this.#at += 2;
      const { written } = encoder.encodeInto(entry.name, this.#bytes.subarray(this.#at));
      if (written > 0xffff) return void (this.#at = start); // left out (no such name exists)
      this.#view.setUint16(at, written);
      this.#at += written;
    }
  }

  /** An entry's stat, read from disk at `path`. */
  stat(path: string, info: Deno.FileInfo): void {
    if (!this.#room(46 + 3 * path.length)) return;
    this.#byte(STAT);
    this.#string(path);
    this.#byte(kindOf(info));
    this.#view.setFloat64(this.#at, info.mtime?.getTime() ?? UNKNOWN_TIME);
    this.#view.setFloat64(this.#at + 8, birthTime(info));
    this.#view.setFloat64(this.#at + 16, info.size);
    this.#view.setFloat64(this.#at + 24, info.dev ?? 0);
    this.#view.setFloat64(this.#at + 32, info.ino ?? 0);
    this.#at += 40;
  }

  /** Pushes what is packed (false once the ring is told to stop). */
  flush(): boolean {
    if (this.#at === 0) return !this.#ring.stopped;
    const pushed = this.#ring.push(this.#bytes.subarray(0, this.#at));
    this.#at = 0;
    return pushed;
  }

  /** Makes room for a record of at most `most` bytes: false if it can never fit. */
  #room(most: number): boolean {
    if (this.#at + most <= this.#bytes.length) return true;
    if (!this.flush()) return false;
    if (most <= CHUNK_BYTES) return true;
    if (most > this.#ring.capacity) return false;
    this.#bytes = new Uint8Array(most); // one big listing: its own chunk
    this.#view = new DataView(this.#bytes.buffer);
    return true;
  }

  #byte(value: number): void {
    this.#bytes[this.#at++] = value;
  }

  #string(value: string): void {
    const at = this.#at;
    this.#at += 4;
    const { written } = encoder.encodeInto(value, this.#bytes.subarray(this.#at));
    this.#view.setUint32(at, written);
    this.#at += written;
  }
}

/** Reads the records of one chunk, in the order they were written. */
export function readRecords(
  chunk: Uint8Array,
  onList: (path: string, listing: FedListing) => void,
  onStat: (path: string, stat: FedStat) => void,
): void {
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let at = 0;
  const string = (bytes: number): string => {
    const value = decoder.decode(chunk.subarray(at, at + bytes));
    at += bytes;
    return value;
  };
  while (at < chunk.length) {
    const tag = chunk[at++];
    const pathBytes = view.getUint32(at);
    at += 4;
    const path = string(pathBytes);
    if (tag === LIST) {
      const count = view.getUint32(at);
      at += 4;
      const names: string[] = [];
      const kinds: number[] = [];
      for (let i = 0; i < count; i++) {
        kinds.push(chunk[at++]!);
        const bytes = view.getUint16(at);
        at += 2;
        names.push(string(bytes));
      }
      onList(path, { names, kinds });
    } else {
      const kind = chunk[at++]!;
      const stat = {
        kind,
        mtime: view.getFloat64(at),
        birth: view.getFloat64(at + 8),
        size: view.getFloat64(at + 16),
        dev: view.getFloat64(at + 24),
        ino: view.getFloat64(at + 32),
      };
      at += 40;
      onStat(path, stat);
    }
  }
}
