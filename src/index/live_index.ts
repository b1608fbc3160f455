/**
 * The live index (contract §18): for each root, a watch worker that reports changes and
 * an index worker that answers the root's scans from memory, kept true by those changes.
 * A scan goes to the index worker only while the root is watched; otherwise (the watch
 * is starting, failed, broke, or the index grew past `INDEX_MAX_ENTRIES`) it is a plain
 * walk on the pool, never a stale answer. The first call on a root starts its watch.
 *
 * @module
 */
import type { Root } from "../config.ts";
import type { ScanOutcome } from "../search/collector.ts";
import { type SearchRequest, WHOLE } from "../search/request.ts";
import type { ScanProgress } from "../search/scan.ts";
import type { Scanner } from "../search/scanner.ts";
import { spawnSandboxed } from "../search/worker_pool.ts";
import { runTask } from "../search/worker_task.ts";
import type { IndexControl, WatchCommand, WatchReport } from "./index_protocol.ts";

/** Where a root's index stands, for `fs.list_roots` and the logs. */
export interface IndexStatus {
  /** `starting`: the watch is being set up; `watching`: answers come from the index. */
  state: "off" | "starting" | "watching";
  /** Entries the index holds. */
  entries: number;
  /** Why it is off. */
  reason?: string;
}

/** Options of {@linkcode LiveIndex}. */
export interface LiveIndexOptions {
  /** Every root and real path the workers may read. */
  readPaths: string[];
  /** `INDEX_MAX_ENTRIES`: past it a root is scanned as with the index off. */
  maxEntries: number;
  /** One line for the logs, once per change of a root's state. */
  log(level: "info" | "warning", message: string): void;
  /** How long past `SCAN_TIMEOUT_MS` a silent worker is given. Default 1000 ms. */
  graceMs?: number;
  /** How long after a failed or broken watch it is tried again. Default 60 s. */
  retryMs?: number;
  /** The watch worker's module. Default: the real one. */
  watchWorkerUrl?: URL;
  /** Told of every batch of changes once it is on its way to the index (for tests). */
  onChanges?: (paths: string[], rescan: boolean) => void;
}

const INDEX_WORKER = new URL("./index_worker.ts", import.meta.url);
const WATCH_WORKER = new URL("./watch_worker.ts", import.meta.url);

/** One root's index. */
interface RootIndex {
  number: number;
  status: IndexStatus;
  watch: Worker | null;
  index: Worker | null;
  /** Scans run one at a time on the index worker. */
  queue: Promise<unknown>;
  pings: Map<number, () => void>;
  retry: ReturnType<typeof setTimeout> | undefined;
}

/** A scanner that answers from a live index where it can, and walks where it cannot. */
export class LiveIndex implements Scanner {
  readonly #walk: Scanner;
  readonly #options: LiveIndexOptions;
  readonly #roots = new Map<string, RootIndex>();
  readonly #order: string[];
  #nextPing = 1;
  #closed = false;

  /** `walk` answers whatever the index cannot; `roots` are numbered for the logs. */
  constructor(walk: Scanner, roots: readonly Root[], options: LiveIndexOptions) {
    this.#walk = walk;
    this.#options = options;
    this.#order = roots.map((r) => r.path);
  }

  async run(
    request: SearchRequest,
    signal?: AbortSignal,
    onProgress?: (progress: ScanProgress) => void,
  ): Promise<ScanOutcome> {
    const root = this.#rootIndex(request.root);
    if (root.status.state !== "watching") return this.#walk.run(request, signal, onProgress);
    const previous = root.queue;
    let done = () => {};
    root.queue = new Promise<void>((resolve) => (done = resolve));
    try {
      await previous;
      await this.#flush(root);
      if (root.status.state !== "watching") return this.#walk.run(request, signal, onProgress);
      const worker = root.index ??= this.#startIndex();
      const task = runTask(worker, { ...request, share: WHOLE }, {
        signal: signal ?? new AbortController().signal,
        onProgress,
        graceMs: this.#options.graceMs ?? 1000,
        settle: (keep) => {
          if (!keep) this.#dropIndex(root); // cancelled or stuck: the next call starts afresh
        },
        onIndex: (report) => {
          root.status.entries = report.entries;
          if (report.overflowed) {
            this.#stop(root, `more than ${this.#options.maxEntries} entries (INDEX_MAX_ENTRIES)`);
          }
        },
      });
      return await task.outcome;
    } finally {
      done();
    }
  }

  /** Each root's index, in the order of the roots. */
  status(): IndexStatus[] {
    return this.#order.map((path) =>
      this.#roots.get(path)?.status ?? { state: "off", entries: 0, reason: "not used yet" }
    );
  }

  close(): void {
    this.#closed = true;
    for (const root of this.#roots.values()) {
      clearTimeout(root.retry);
      root.watch?.terminate();
      root.index?.terminate();
      for (const resolve of root.pings.values()) resolve();
    }
    this.#walk.close();
  }

  #rootIndex(root: Root): RootIndex {
    let found = this.#roots.get(root.path);
    if (!found) {
      found = {
        number: this.#order.indexOf(root.path) + 1,
        status: { state: "off", entries: 0 },
        watch: null,
        index: null,
        queue: Promise.resolve(),
        pings: new Map(),
        retry: undefined,
      };
      this.#roots.set(root.path, found);
      this.#watch(found, root);
    }
    return found;
  }

  #watch(root: RootIndex, where: Root): void {
    if (this.#closed) return;
    root.status = { state: "starting", entries: 0 };
    const url = this.#options.watchWorkerUrl ?? WATCH_WORKER;
    const watch = spawnSandboxed(url, this.#options.readPaths);
    root.watch = watch;
    watch.onmessage = (event: MessageEvent<WatchReport>) => {
      const report = event.data;
      if (report.type === "ready") {
        root.status = { state: "watching", entries: 0 };
        this.#options.log(
          "info",
          `index: root #${root.number} is watched; answers come from memory.`,
        );
      } else if (report.type === "changes") {
        this.#post(root, { type: "changes", changes: report.changes, rescan: report.rescan });
        this.#options.onChanges?.(report.changes.flatMap((c) => c.paths), report.rescan);
        if (report.rescan) {
          this.#options.log(
            "warning",
            `index: root #${root.number} changed faster than its events could be read; its index starts over.`,
          );
        }
      } else if (report.type === "pong") {
        root.pings.get(report.id)?.();
        root.pings.delete(report.id);
      } else {
        const why = report.type === "failed" ? "the watch failed" : "the watch broke";
        this.#stop(root, `${why}: ${report.reason}`);
        root.retry = setTimeout(() => this.#watch(root, where), this.#options.retryMs ?? 60_000);
      }
    };
    watch.onerror = (event) => {
      event.preventDefault();
      this.#stop(root, "the watch worker failed");
    };
    const command: WatchCommand = { type: "watch", path: where.realPath };
    watch.postMessage(command);
  }

  /** Waits until the watch worker has passed on every change it has read. */
  #flush(root: RootIndex): Promise<void> {
    const watch = root.watch;
    if (!watch) return Promise.resolve();
    const id = this.#nextPing++;
    return new Promise<void>((resolve) => {
      root.pings.set(id, resolve);
      const command: WatchCommand = { type: "ping", id };
      watch.postMessage(command);
    });
  }

  #startIndex(): Worker {
    const worker = spawnSandboxed(INDEX_WORKER, this.#options.readPaths);
    const record: IndexControl = { type: "record", maxEntries: this.#options.maxEntries };
    worker.postMessage(record);
    return worker;
  }

  #post(root: RootIndex, control: IndexControl): void {
    root.index?.postMessage(control);
  }

  #dropIndex(root: RootIndex): void {
    root.index?.terminate();
    root.index = null;
    root.status.entries = 0;
  }

  /** Back to plain walks for this root, never a stale answer; said once in the logs. */
  #stop(root: RootIndex, reason: string): void {
    root.watch?.terminate();
    root.watch = null;
    this.#dropIndex(root);
    for (const resolve of root.pings.values()) resolve();
    root.pings.clear();
    if (root.status.state === "off" && root.status.reason === reason) return;
    root.status = { state: "off", entries: 0, reason };
    this.#options.log(
      "warning",
      `index: root #${root.number} is scanned without an index: ${reason}.`,
    );
  }
}
