/**
 * The disk as a root's index reads it (contract §18, docs/index.md "The fill on two
 * cores"): the real file system, except that while a fill is fed, a listing or a stat the
 * fill helper has already read comes from the feed (feed_ring.ts, feed_records.ts)
 * instead of a second system call. The helper walks the same tree in the same order and
 * stats its share of the entries; whatever the feed does not bring (yet) is read from
 * disk as before.
 *
 * Why what the feed brings is as true as a read from disk now: the helper reads only
 * after the index worker says go, and from then on every change the watch reports is
 * noted here. A listing or stat that a change noted since could concern (the entry or any
 * folder above it; for a listing, also an entry added to or removed from the folder) is
 * not taken (an event's path is also taken through links: the runtime may report it under
 * a link inside the root); a change reported after it was taken makes the index forget it,
 * as for a read from disk. Links and containment are checked on disk as before: only listings and
 * stats come from the feed, never a real path.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import { folderAbove, hostRules } from "../../security/mod.ts";
import { realFolder } from "../cache/mod.ts";
import type { Change } from "../watch/mod.ts";
import { FeedReader } from "./feed_ring.ts";
import { type FedListing, type FedStat, readRecords } from "./feed_records.ts";
import { reusedInfo, setKind } from "../store/mod.ts";

const SEP = hostRules.sep;

/** Records waiting in arrival order (which is walk order): the next to look at from `head`. */
interface Queue<T> {
  keys: string[];
  /** A value looked at is let go at once (a listing may be large). */
  values: (T | undefined)[];
  head: number;
}

function queue<T>(): Queue<T> {
  return { keys: [], values: [], head: 0 };
}

/** The real file system, fed by a fill helper while a fill runs. */
export class FedFs implements FsPort {
  readonly #disk: FsPort;
  #reader: FeedReader | null = null;
  readonly #listings = queue<FedListing>();
  readonly #stats = queue<FedStat>();
  /** Paths changed since the feed began: nothing at or below them is taken. */
  readonly #changed = new Set<string>();
  /** Folders an entry came into, left or changed in since: their listing and own stat. */
  readonly #touched = new Set<string>();
  /** The real path of the root being filled. */
  #root = "";

  constructor(disk: FsPort) {
    this.#disk = disk;
  }

  /** Starts taking what the helper writes into `ring` (a fill of `root`), and lets it start. */
  feed(ring: SharedArrayBuffer, root: string): void {
    this.end();
    this.#root = root;
    this.#reader = new FeedReader(ring);
    this.#reader.go();
  }

  /** Ends the feed: its helper is told to stop, and nothing more is taken from it. */
  end(): void {
    this.#reader?.stop();
    this.#reader = null;
    for (const records of [this.#listings, this.#stats] as Queue<unknown>[]) {
      records.keys.length = 0;
      records.values.length = 0;
      records.head = 0;
    }
    this.#changed.clear();
    this.#touched.clear();
  }

  /** Changes the watch reported (`"all"`: events were lost): what they concern is not taken. */
  changed(changes: readonly Change[] | "all"): void {
    if (this.#reader === null) return;
    if (changes === "all") return this.end();
    for (const change of changes) {
      for (const path of change.paths) {
        this.#note(path);
        // The runtime reports a change under a link inside the root by whichever path it
        // walked last, while the feed is keyed by real paths (issue 40).
        const dir = folderAbove(path);
        const real = realFolder(this.#disk, this.#root, dir);
        if (real !== null && real !== dir) this.#note(real + path.slice(dir.length));
      }
    }
  }

  /** Nothing at or below `path` is taken, nor its folder's listing and own stat. */
  #note(path: string): void {
    this.#changed.add(path);
    this.#touched.add(folderAbove(path));
  }

  readDir(path: string): Iterable<Deno.DirEntry> {
    const listing = this.#take(this.#listings, path + SEP); // a subtree's walk key
    if (listing === undefined) return this.#disk.readDir(path);
    const { names, kinds } = listing;
    const entry = (name: string, kind: number) =>
      setKind({ name, isDirectory: false, isFile: false, isSymlink: false }, kind);
    return names.map((name, i) => entry(name, kinds[i]!));
  }

  readDirStream(path: string): AsyncIterable<Deno.DirEntry> {
    return this.#disk.readDirStream(path);
  }

  lstat(path: string): Deno.FileInfo {
    const stat = this.#take(this.#stats, path);
    if (stat === undefined) return this.#disk.lstat(path);
    return reusedInfo(stat.kind, stat.size, stat.mtime, stat.birth, stat.dev, stat.ino);
  }

  realPath(path: string): string {
    return this.#disk.realPath(path);
  }

  readTextFile(path: string, maxBytes: number): string {
    return this.#disk.readTextFile(path, maxBytes);
  }

  /**
   * What the feed brought for `key`, if it did and no change noted since concerns it.
   * Both walk in the same order, in which keys only increase: what the feed brought for
   * anything before `key` is dropped (the index read it itself).
   */
  #take<T>(records: Queue<T>, key: string): T | undefined {
    if (this.#reader === null) return undefined;
    const { keys } = records;
    for (;;) {
      while (records.head < keys.length && keys[records.head]! < key) {
        records.values[records.head++] = undefined;
      }
      if (records.head < keys.length || !this.#pull()) break;
    }
    if (records.head === keys.length || keys[records.head] !== key) return undefined;
    const found = records.values[records.head]!;
    records.values[records.head++] = undefined;
    return this.#unchanged(key) ? found : undefined;
  }

  /**
   * Reads the next chunk the ring holds: false if there is none. One at a time, so that
   * what waits decoded is never much more than the index is about to take.
   */
  #pull(): boolean {
    const chunk = this.#reader!.pull();
    if (chunk === null) return false;
    compact(this.#listings);
    compact(this.#stats);
    readRecords(
      chunk,
      (path, listing) => append(this.#listings, path + SEP, listing),
      (path, stat) => append(this.#stats, path, stat),
    );
    return true;
  }

  /** Whether no change since the feed began names the entry at `key` or a folder above it. */
  #unchanged(key: string): boolean {
    if (this.#changed.size === 0 && this.#touched.size === 0) return true;
    const path = key.endsWith(SEP) ? key.slice(0, -1) : key;
    if (this.#touched.has(path)) return false;
    for (let p = path; p.length > 0; p = folderAbove(p)) {
      if (this.#changed.has(p)) return false;
    }
    return true;
  }
}

function append<T>(records: Queue<T>, key: string, value: T): void {
  records.keys.push(key);
  records.values.push(value);
}

/** Lets go of what was looked past in `records`, once that is most of it (in place). */
function compact<T>(records: Queue<T>): void {
  if (records.head < 1024 || records.head * 2 < records.keys.length) return;
  records.keys.splice(0, records.head);
  records.values.splice(0, records.head);
  records.head = 0;
}
