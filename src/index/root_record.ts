/**
 * One root's index as the live index holds it: its watch, its index worker (and how it is
 * started), the turns scans take on it, and where it stands.
 *
 * @module
 */
import { DEFAULT_CHANGES, type Root } from "../config.ts";
import { spawnSandboxed, type Task } from "../workers/mod.ts";
import { WORKER_MODULES } from "../worker_modules.ts";
import type { CheckedMessage, HoldMessage, IndexControl } from "./answer/mod.ts";
import { CHECK_CORE_SHARE } from "./cache/mod.ts";
import type { LiveIndexOptions, RootState } from "./live_index_options.ts";
import type { RootWatch } from "./watch/mod.ts";
import { Turns } from "./scan_turns.ts";

/** One root's index. */
export interface RootIndex {
  /** Its place among the roots, from 1 (the logs name roots by number, never by path). */
  number: number;
  where: Root;
  status: RootState;
  watch: RootWatch | null;
  index: Worker | null;
  /** Scans run one at a time on the index worker. */
  turns: Turns;
  /** The scan on the index worker now. */
  inflight: Task | null;
  retry: ReturnType<typeof setTimeout> | undefined;
  /** Folders its watch leaves out (watch_plan.ts): read from disk by every scan. */
  unwatched: readonly string[];
  /** How many, and why (`fs.list_roots`); `undefined` when none. */
  readFromDisk: RootState["readFromDisk"];
  /** Fills that failed in a row (each tried again after a longer wait, up to a bound). */
  failedFills: number;
  /** When the build under way began (the keeper's clock), for its pace (build_wait.ts). */
  buildStartedAt: number | null;
  /**
   * Bumped each time the root becomes ready (its journal begins anew, contract §24): a
   * clock of another epoch is from before a loss or a restart of its index.
   */
  epoch: number;
  /** The server's calls running now (call_gate.ts), which its index worker is told of. */
  running: Int32Array;
}

/** The index of root `where`, the `number`-th, in a server with calls `running`: not started. */
export function newRootIndex(number: number, where: Root, running: Int32Array): RootIndex {
  return {
    number,
    where,
    running,
    status: { state: "off", entries: 0 },
    watch: null,
    index: null,
    turns: new Turns(),
    inflight: null,
    retry: undefined,
    failedFills: 0,
    buildStartedAt: null,
    unwatched: [],
    readFromDisk: undefined,
    epoch: 0,
  };
}

/** Runs `then` after `ms` as the root's one pending retry (any earlier one is dropped). */
export function later(root: RootIndex, then: () => void, ms: number): void {
  clearTimeout(root.retry);
  root.retry = setTimeout(then, ms);
}

/** Each index worker's end, aborted when it is terminated (endIndex). */
const ends = new WeakMap<Worker, AbortController>();

/** Terminates an index worker; what waits on it (a journal question) is told at once. */
export function endIndex(worker: Worker): void {
  ends.get(worker)?.abort();
  worker.terminate();
}

/** Aborted once the index worker is ended by {@linkcode endIndex}. */
export function indexEnd(worker: Worker): AbortSignal | undefined {
  return ends.get(worker)?.signal;
}

/**
 * Starts root `root`'s index worker (one of `roots` roots), told what to record and the calls
 * running, and kept told of its background check's rounds (contract §18: said in
 * fs.list_roots); the folders it asks to be held go on to the root's watch (held_watches.ts).
 */
export function startIndex(root: RootIndex, options: LiveIndexOptions, roots: number): Worker {
  const url = options.indexWorkerUrl ?? WORKER_MODULES.index;
  const worker = spawnSandboxed(url, options.readPaths);
  const { maxEntries } = options;
  const { maxEntries: maxSteps, maxAgeMs } = options.changes ?? DEFAULT_CHANGES;
  worker.postMessage(
    {
      type: "record",
      maxEntries,
      unwatched: root.unwatched,
      // Read by the server: `node:v8` in the worker would start Deno's Node layer in it.
      ...(options.heapLimit ? { heapLimit: options.heapLimit } : {}),
      journal: { maxSteps, maxAgeMs },
      // One server's idle share, split among all its roots (background_check.ts).
      checkShare: CHECK_CORE_SHARE / roots,
      running: root.running,
    } satisfies IndexControl,
  );
  ends.set(worker, new AbortController());
  worker.addEventListener("message", ({ data }: MessageEvent<CheckedMessage | HoldMessage>) => {
    if (root.index !== worker) return;
    if (data?.type === "hold") return root.watch?.hold(data.moves);
    if (data?.type !== "checked") return;
    root.status.checkedWhole = new Date(data.wholeSince).toISOString();
    root.status.checkEnded = new Date(data.ended).toISOString();
  });
  return worker;
}
