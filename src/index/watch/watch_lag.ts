/**
 * When the runtime's watcher has caught up with the folders made or moved into a root
 * (contract §18, "What no event reports yet"; issue 40). On Linux the runtime's `notify` backend
 * reads the kernel's events in one run for as long as more keep coming, and adds the
 * watches of the folders made or moved in during the run only when it ends; until then a
 * change inside such a folder has no event (nothing watches it yet), and a moved folder's
 * events name its old path (which the runtime then drops). On a busy tree a run can last
 * seconds, and what the index read of such a folder meanwhile may go stale with no event.
 *
 * So each folder an event says was made or moved in is *behind* until a probe proves the
 * watcher caught up with it: the watch worker makes a folder of its own in the root's
 * private folder (the anchor) and, once the anchor's event is read, writes a file in it,
 * again every few milliseconds until that file's event is read. The backend adds watches
 * in the order their events were read, all of a run's at its end: a change inside the
 * anchor can only be reported once the anchor's watch is in place, and by then so are the
 * watches of every folder whose event was read before the anchor's. Those folders (one
 * *wave*) have then caught up; the index reads them from disk until then, and once more
 * after (what it read before may predate their watch).
 *
 * @module
 */

/** The name of a probe's folder in the private folder, before its wave and attempt. */
export const PROBE_PREFIX = "caught-up-";
/** The waits between writes in the anchor, in ms, the last one repeated. */
const WAITS_MS = [2, 5, 10, 20, 50, 100, 200];
/**
 * An anchor whose event has not come by then is made again under another name (a watcher
 * that coalesces or drops events, as FSEvents may: the folders behind stay read from disk
 * meanwhile, never stale).
 */
const ANCHOR_WAIT_MS = 1000;

type Timer = ReturnType<typeof setTimeout>;

/** What the probe does on disk and with time (the real ones by default). */
export interface ProbeIo {
  makeFolder(path: string): void;
  writeFile(path: string): void;
  removeFolder(path: string): void;
  later(then: () => void, ms: number): Timer;
  cancel(timer: Timer): void;
}

const denoIo: ProbeIo = {
  makeFolder: (path) => Deno.mkdirSync(path, { mode: 0o700 }),
  writeFile: (path) => Deno.writeFileSync(path, new Uint8Array()),
  removeFolder: (path) => Deno.removeSync(path, { recursive: true }),
  later: (then, ms) => setTimeout(then, ms),
  cancel: (timer) => clearTimeout(timer),
};

/** What one event read means to the probe. */
export interface LagRead {
  /** The probe's anchor was read: the folders behind so far belong to the wave it closes. */
  closed: boolean;
  /** The wave whose folders the watcher has now caught up with, or `null`. */
  caughtUp: number | null;
}

/** The folders behind the runtime's watcher, in waves, and the probe of the oldest open one. */
export class WatchLag {
  readonly #prefix: string;
  readonly #sep: string;
  readonly #io: ProbeIo;
  /** The wave a folder found behind now belongs to. */
  #wave = 1;
  /** The probe out: its wave, its anchor's path, whether the anchor was read. */
  #probe: { wave: number; anchor: string; anchored: boolean; tries: number } | null = null;
  #timer: Timer | null = null;
  /** A folder of the next wave waits for the probe out to end. */
  #owed = false;
  /** A probe failed on disk (the private folder is gone?). */
  readonly #failed: (err: unknown) => void;

  /**
   * `dir`: the root's private folder (a real path); `failed`: a probe could not be written;
   * `tag`: what this watch's anchors are named with after the prefix, apart from an earlier
   * watch's (one being stopped may still make an anchor in the folder made afresh for this
   * one: of the same name, this one's could not be made, and the watch would end).
   */
  constructor(
    dir: string,
    sep: string,
    failed: (err: unknown) => void,
    io: ProbeIo = denoIo,
    tag = "",
  ) {
    this.#prefix = dir + sep + PROBE_PREFIX + tag;
    this.#sep = sep;
    this.#failed = failed;
    this.#io = io;
  }

  /** A folder made or moved in was read: the wave it belongs to (a probe is under way). */
  behind(): number {
    if (this.#probe === null) this.#start();
    else if (this.#probe.anchored) this.#owed = true;
    return this.#wave;
  }

  /** Reads one event's paths (every event, the probe's own included). */
  read(paths: readonly string[]): LagRead {
    const probe = this.#probe;
    const read: LagRead = { closed: false, caughtUp: null };
    if (probe === null) return read;
    for (const path of paths) {
      if (!probe.anchored && path === probe.anchor) {
        probe.anchored = read.closed = true;
        this.#wave++;
        if (this.#timer !== null) this.#io.cancel(this.#timer);
        this.#try();
      } else if (probe.anchored && path.startsWith(probe.anchor + this.#sep)) {
        read.caughtUp = probe.wave;
        this.#end();
        break;
      }
    }
    return read;
  }

  /** Stops probing (the watch is over). */
  close(): void {
    if (this.#timer !== null) this.#io.cancel(this.#timer);
    this.#timer = null;
    this.#probe = null;
  }

  /** Makes the anchor of the open wave (its `attempt`-th, if one did not come back). */
  #start(attempt = 1): void {
    const anchor = `${this.#prefix}${this.#wave}-${attempt}`;
    const probe = { wave: this.#wave, anchor, anchored: false, tries: 0 };
    this.#probe = probe;
    this.#owed = false;
    this.#do(() => this.#io.makeFolder(anchor));
    if (this.#probe !== probe) return;
    this.#timer = this.#io.later(() => {
      this.#timer = null;
      this.#remove(anchor);
      this.#start(attempt + 1);
    }, ANCHOR_WAIT_MS);
  }

  /** A write in the anchor: its event comes once the anchor is watched; else again later. */
  #try(): void {
    const probe = this.#probe!;
    this.#timer = null;
    this.#do(() => this.#io.writeFile(probe.anchor + this.#sep + "probe"));
    if (this.#probe !== probe) return;
    const wait = WAITS_MS[Math.min(probe.tries++, WAITS_MS.length - 1)]!;
    this.#timer = this.#io.later(() => this.#try(), wait);
  }

  #end(): void {
    const anchor = this.#probe!.anchor;
    this.close();
    this.#remove(anchor);
    if (this.#owed) this.#start();
  }

  #remove(anchor: string): void {
    try {
      this.#io.removeFolder(anchor);
    } catch { /* gone already */ }
  }

  #do(write: () => void): void {
    try {
      write();
    } catch (err) {
      this.close();
      this.#failed(err);
    }
  }
}
