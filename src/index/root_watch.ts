/**
 * A root's watch, as the server holds it (contract §18): the watch worker
 * (`watch_worker.ts`) and what it reports, and the flush before an indexed answer, which
 * waits until every change the worker has read is on its way to the index, never for
 * longer than the caller allows.
 *
 * @module
 */
import { spawnSandboxed } from "../workers/mod.ts";
import type { Change, WatchCommand, WatchReport } from "./index_protocol.ts";
import { settledWithin } from "./turns.ts";

/** What a root's watch tells its owner. */
export interface WatchEvents {
  /** The watch is in place: changes from now on are reported. */
  ready(): void;
  /** Changes, in the order they happened; `rescan`: some were lost, start over. */
  changes(changes: Change[], rescan: boolean): void;
  /** The watch cannot go on (`reason` has no path); `retry`: it may work later. */
  lost(reason: string, retry: boolean): void;
}

/** One root's watch worker. */
export class RootWatch {
  readonly #worker: Worker;
  readonly #events: WatchEvents;
  readonly #pings = new Map<number, () => void>();
  #nextPing = 1;

  /** Starts watching `rootReal` in a worker from `url`, allowed to read `readPaths`. */
  constructor(url: URL, readPaths: string[], rootReal: string, events: WatchEvents) {
    this.#events = events;
    this.#worker = spawnSandboxed(url, readPaths);
    this.#worker.onmessage = (event: MessageEvent<WatchReport>) => {
      const report = event.data;
      if (report.type === "ready") events.ready();
      else if (report.type === "changes") events.changes(report.changes, report.rescan);
      else if (report.type === "pong") {
        this.#pings.get(report.id)?.();
        this.#pings.delete(report.id);
      } else {
        const why = report.type === "failed" ? "the watch failed" : "the watch broke";
        events.lost(`${why}: ${report.reason}`, true);
      }
    };
    this.#worker.onerror = (event) => {
      event.preventDefault();
      events.lost("the watch worker failed", false);
    };
    const command: WatchCommand = { type: "watch", path: rootReal };
    this.#worker.postMessage(command);
  }

  /**
   * Waits until the worker has passed on every change it has read (true), at most `ms`: a
   * watch that does not answer by then is lost (false). Rejects if `signal` aborts first.
   */
  async flush(ms: number, signal?: AbortSignal): Promise<boolean> {
    const id = this.#nextPing++;
    const pong = new Promise<void>((resolve) => this.#pings.set(id, resolve));
    const command: WatchCommand = { type: "ping", id };
    this.#worker.postMessage(command);
    if (await settledWithin(pong, ms, signal)) return true;
    if (this.#pings.delete(id)) this.#events.lost("the watch stopped answering", true);
    return false;
  }

  /** Stops the worker; a flush waiting for it ends. */
  close(): void {
    this.#worker.terminate();
    for (const resolve of this.#pings.values()) resolve();
    this.#pings.clear();
  }
}
