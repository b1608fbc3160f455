/**
 * A root's watch, as the server holds it (contract §18): the watch worker
 * (`watch_worker.ts`) and what it reports, and the barrier before an indexed answer, which
 * waits until the worker's cookie is back and every change before it is on its way to the
 * index, never for longer than the caller allows.
 *
 * @module
 */
import { spawnSandboxed } from "../../workers/mod.ts";
import type {
  Change,
  LagNews,
  ReadFromDisk,
  UnseenMove,
  WatchCommand,
  WatchReport,
} from "./watch_messages.ts";
import { settledWithin } from "../scan_turns.ts";
import { STALL_GRACE_MS, type Stalls } from "./stalls.ts";

/** Why a watch is planned again: a link out appeared. */
const LINK_REPLAN = "a link to a folder outside it appeared; its watch is planned again";
/** Why a root's watch is set up again after a folder it could not list was listed. */
export const OPENED_FOLDER =
  "a folder it could not read can be read now, and the runtime's watch never took it; its watch is set up again";
/** Why a watch is set up again: more folders lost their runtime watch than it holds again. */
export const HELD_REPLAN =
  "the runtime dropped the watch of more folders than it can hold again; its watch is set up again";
/** Why a watch is planned again: a FIFO or device file appeared where the watch would open it. */
export const SPECIAL_REPLAN =
  "a FIFO or device file appeared in a watched folder; its watch is planned again without that folder";

/** What a root's watch tells its owner. */
export interface WatchEvents {
  /**
   * The watch is in place: changes from now on are reported, except in the `unwatched`
   * folders (read from disk by every scan), left so for `why`.
   */
  ready(unwatched: readonly string[], why: ReadFromDisk): void;
  /**
   * Changes, in the order they happened; `rescan`: some were lost, start over; `lag`: the
   * folders the runtime's watcher may not reach yet, and those it now does (watch_lag.ts).
   */
  changes(changes: Change[], rescan: boolean, lag: LagNews): void;
  /**
   * The watch cannot go on (`reason` has no path); `retry`: it may work later (`soon`: a
   * barrier that did not pass, tried again at once; `shortly`: a folder vanished while the
   * watch was set up, tried again in half a second).
   */
  lost(reason: string, retry: boolean | "soon" | "shortly"): void;
}

/** Where a root's watch worker runs and what it watches. */
export interface WatchPlace {
  /** The watch worker's module. */
  url: URL;
  /** What it may read: the roots, their real paths, and `cookies`. */
  readPaths: string[];
  /** The root's real path. */
  rootReal: string;
  /** The root's private folder (a real path): the one place the worker may write. */
  cookies: string;
  /** The kernel queue's length. */
  queueLimit: number;
  /** The server's stalled watches: a stalled one is handed to them when closed. */
  stalls?: Stalls;
  /** How long a stalled watch may pass a barrier late. @default {STALL_GRACE_MS} */
  graceMs?: number;
}

/** One root's watch worker. */
export class RootWatch {
  readonly #worker: Worker;
  readonly #events: WatchEvents;
  /** Barriers waiting, each told whether the root is still the folder watched. */
  readonly #waiting = new Map<number, (same: boolean) => void>();
  /** The root folder's identity when the watch started. */
  #root: string | null = null;
  /** Whether the root was found moved (said once). */
  #moved = false;
  #nextBarrier = 1;
  /** A barrier did not pass in time: the watch may be stuck (stalls.ts). */
  #stalled = false;
  /** A FIFO or device file appeared in a folder it watches: its watcher may be blocked opening it. */
  #special = false;
  /** Closed: only a late barrier is still listened for, to tell a stuck watch. */
  #closed = false;
  /** Told when a barrier passes late, after close. */
  #late: ((passed: boolean) => void) | null = null;
  readonly #place: WatchPlace;

  /** Starts watching the root in a worker, as `place` says. */
  constructor(place: WatchPlace, events: WatchEvents) {
    this.#events = events;
    this.#place = place;
    const { url, readPaths, cookies } = place;
    this.#worker = spawnSandboxed(url, [...readPaths, cookies], [cookies]);
    this.#worker.onmessage = (event: MessageEvent<WatchReport>) => {
      const report = event.data;
      if (this.#closed) {
        if (report.type === "passed") this.#late?.(true);
        return;
      }
      if (report.type === "ready") {
        this.#root = report.root;
        const why = report.why ?? { linksOut: 0, specialFiles: 0 };
        events.ready(report.unwatched ?? [], why);
      } else if (report.type === "moved") this.#rootMoved();
      else if (report.type === "replan") {
        if (report.special) this.#special = true;
        const why = report.held
          ? HELD_REPLAN
          : report.opened
          ? OPENED_FOLDER
          : report.special
          ? SPECIAL_REPLAN
          : LINK_REPLAN;
        events.lost(why, "soon");
      } else if (report.type === "changes") {
        const { behind, caughtUp, held } = report;
        events.changes(report.changes, report.rescan, { behind, caughtUp, held });
      } else if (report.type === "passed") {
        this.#stalled = this.#special = false; // late, but not stuck
        const same = report.root !== null && report.root === this.#root;
        this.#waiting.get(report.id)?.(same);
        this.#waiting.delete(report.id);
        if (!same) this.#rootMoved();
      } else if (report.type === "failed") {
        const reason = `the watch failed: ${report.reason}`;
        // A folder removed while the runtime set its watch up (a build or a rename storm):
        // tried again shortly, not after the minute a failure of the watch itself waits.
        const vanished = report.reason === "NotFound" && (report.retry ?? true);
        events.lost(reason, vanished ? "shortly" : report.retry ?? true);
      } else events.lost(`the watch broke: ${report.reason}`, report.soon ? "soon" : true);
    };
    this.#worker.onerror = (event) => {
      event.preventDefault();
      events.lost("the watch worker failed", false);
    };
    const command: WatchCommand = {
      type: "watch",
      path: place.rootReal,
      cookies,
      queueLimit: place.queueLimit,
    };
    this.#worker.postMessage(command);
  }

  /**
   * Passes a barrier: waits until the worker's cookie is back and every change before it
   * has been sent on (true), at most `ms`. A cookie not back by then means a stalled or
   * drowned watch: it is lost, to be started again (false). Rejects if `signal` aborts first.
   */
  async barrier(ms: number, signal?: AbortSignal): Promise<boolean> {
    const id = this.#nextBarrier++;
    let same = false;
    const passed = new Promise<void>((resolve) =>
      this.#waiting.set(id, (ok) => {
        same = ok;
        resolve();
      })
    );
    const command: WatchCommand = { type: "barrier", id };
    this.#worker.postMessage(command);
    try {
      if (await settledWithin(passed, ms, signal)) return same;
    } catch (err) {
      this.#waiting.delete(id); // the caller gave up first: not the watch's fault
      throw err;
    }
    if (this.#waiting.delete(id)) {
      this.#stalled = true;
      this.#events.lost(`its watch did not pass a barrier within ${ms} ms`, "soon");
    }
    return false;
  }

  /** Asks the worker to hold folders moved unseen where they are now (held_watches.ts). */
  hold(moves: UnseenMove[]): void {
    const command: WatchCommand = { type: "hold", moves };
    this.#worker.postMessage(command);
  }

  /**
   * Whether it may be stuck, no barrier having passed since: one did not pass in time, or a
   * FIFO or device file appeared in a folder it watches ({@linkcode RootWatch.specialSeen}).
   */
  get stalled(): boolean {
    return this.#stalled || this.#special;
  }

  /**
   * The index read a FIFO or device file in a folder this watch watches: the runtime's watcher
   * opens the path of each event, and may be blocked on it for good (stalls.ts), whether or
   * not a barrier was asked for since.
   */
  specialSeen(): void {
    this.#special = true;
  }

  /**
   * Stops the worker; a barrier waiting for it ends, not passed. A stalled watch is handed
   * to the server's stalls first: stopped once it passes a barrier late, or its grace ends
   * (then its runtime thread may be blocked for good: stalls.ts). One that only saw a special
   * file is asked a barrier now, to tell.
   */
  close(): void {
    for (const resolve of this.#waiting.values()) resolve(false);
    this.#waiting.clear();
    this.#closed = true;
    const { stalls, graceMs = STALL_GRACE_MS } = this.#place;
    if (!this.stalled || !stalls) return this.#worker.terminate();
    if (!this.#stalled) {
      const command: WatchCommand = { type: "barrier", id: this.#nextBarrier++ };
      this.#worker.postMessage(command);
    }
    const late = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), graceMs);
      this.#late = (passed) => {
        clearTimeout(timer);
        resolve(passed);
      };
    });
    stalls.track(late.finally(() => this.#worker.terminate()));
  }

  /** The root is no longer the folder watched: the watch is over, to be started again. */
  #rootMoved(): void {
    if (this.#moved) return;
    this.#moved = true;
    this.#events.lost(
      "its root folder was moved, removed or replaced, or a folder its watch rests on was",
      "soon",
    );
  }
}
