/**
 * The scan workers: Web Workers whose Deno permissions allow reading the roots and
 * nothing else (contract §13, layer 2), at most `maxWorkers` busy at once, a few kept
 * warm between calls and let go after `idleMs` without one (each is an isolate of its own,
 * about 8 MB: a session answered by its index service walks only now and then). A worker
 * that is stopped (cancelled, stuck, crashed) is terminated; the next lease spawns a fresh
 * one.
 *
 * @module
 */
import { WORKER_MODULES } from "../worker_modules.ts";
import { ioFailure } from "./worker_task.ts";

/** Options of {@linkcode WorkerPool}. */
export interface WorkerPoolOptions {
  /** The only paths the workers may read: every root and its real path. */
  readPaths: string[];
  /** Idle workers kept warm between calls. Default 4. */
  idle?: number;
  /** Workers busy at once; further leases wait their turn. Default 4. */
  maxWorkers?: number;
  /** How long the warm workers are kept after the last lease ends (ms). Default 60,000. */
  idleMs?: number;
  /** The workers' entry module. Default `WORKER_MODULES.scan`, the real file system. */
  workerUrl?: URL;
}

/** One worker, lent out until {@linkcode Lease.release}. */
export interface Lease {
  worker: Worker;
  /** Gives the worker back: kept warm (`keep`, if it finished cleanly) or terminated. */
  release(keep: boolean): void;
  /** Called if the pool closes while the worker is lent out (it is then terminated). */
  onClose?: () => void;
}

/** How many workers are where: for tests and logs. */
export interface PoolCounts {
  idle: number;
  busy: number;
  /** Leases waiting for a free slot. */
  waiting: number;
  /** Workers spawned and not yet terminated (idle + busy, unless one leaked). */
  alive: number;
}

/** A pool of sandboxed scan workers. */
export class WorkerPool {
  readonly #options: Required<Omit<WorkerPoolOptions, "workerUrl">> & { workerUrl: URL };
  readonly #idle: Worker[] = [];
  readonly #busy = new Set<Lease>();
  readonly #waiting: { start: () => void; fail: (reason: unknown) => void }[] = [];
  /** Slots taken: leases out, and waiters already given a slot but not yet running. */
  #taken = 0;
  #alive = 0;
  #closed = false;
  /** Lets the warm workers go once no lease was taken for `idleMs`. */
  #cooling: ReturnType<typeof setTimeout> | undefined;

  constructor(options: WorkerPoolOptions) {
    this.#options = {
      readPaths: options.readPaths,
      idle: options.idle ?? 4,
      maxWorkers: options.maxWorkers ?? 4,
      idleMs: options.idleMs ?? 60_000,
      workerUrl: options.workerUrl ?? WORKER_MODULES.scan,
    };
  }

  /** Lends a worker once a slot is free; rejects with the signal's reason if aborted first. */
  async acquire(signal?: AbortSignal): Promise<Lease> {
    if (this.#closed) throw ioFailure("server shutting down");
    signal?.throwIfAborted();
    if (this.#taken < this.#options.maxWorkers) this.#taken++;
    else await this.#wait(signal); // the slot is taken for us when we are started
    if (this.#closed) throw ioFailure("server shutting down");
    clearTimeout(this.#cooling);
    const worker = this.#idle.pop() ?? this.#spawn();
    let released = false;
    const lease: Lease = {
      worker,
      release: (keep) => {
        if (released) return;
        released = true;
        this.#busy.delete(lease);
        this.#taken--;
        if (keep && !this.#closed && this.#idle.length < this.#options.idle) {
          this.#idle.push(worker);
        } else {
          this.#terminate(worker);
        }
        this.#waiting.shift()?.start();
        if (this.#busy.size === 0 && this.#idle.length > 0) this.#cool();
      },
    };
    this.#busy.add(lease);
    return lease;
  }

  /** Counts of idle, busy and waiting. */
  counts(): PoolCounts {
    return {
      idle: this.#idle.length,
      busy: this.#busy.size,
      waiting: this.#waiting.length,
      alive: this.#alive,
    };
  }

  /** After `idleMs` with no lease, the warm workers are terminated (the timer holds no exit). */
  #cool(): void {
    clearTimeout(this.#cooling);
    const cooling = setTimeout(() => {
      if (this.#busy.size > 0) return;
      for (const worker of this.#idle.splice(0)) this.#terminate(worker);
    }, this.#options.idleMs);
    Deno.unrefTimer(Number(cooling));
    this.#cooling = cooling;
  }

  /** Stops every worker; waiting leases reject, lent ones are told through `onClose`. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#cooling);
    for (const waiter of this.#waiting.splice(0)) waiter.fail(ioFailure("server shutting down"));
    for (const lease of [...this.#busy]) {
      lease.onClose?.();
      lease.release(false);
    }
    for (const worker of this.#idle.splice(0)) this.#terminate(worker);
  }

  #terminate(worker: Worker): void {
    worker.terminate();
    this.#alive--;
  }

  #wait(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          signal?.removeEventListener("abort", onAbort);
          this.#taken++;
          resolve();
        },
        fail: (reason: unknown) => {
          signal?.removeEventListener("abort", onAbort);
          reject(reason);
        },
      };
      const onAbort = () => {
        this.#waiting.splice(this.#waiting.indexOf(entry), 1);
        entry.fail(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  #spawn(): Worker {
    this.#alive++;
    return spawnSandboxed(this.#options.workerUrl, this.#options.readPaths);
  }
}

/**
 * A Web Worker whose Deno permissions allow reading `readPaths` and nothing else
 * (contract §13, layer 2): every worker that touches the file system is made here. Only
 * the live index's watch worker is given `writePaths`: the server's private folder of
 * barrier cookies (contract §13, §18); every other worker writes nothing.
 */
export function spawnSandboxed(url: URL, readPaths: string[], writePaths: string[] = []): Worker {
  return new Worker(url, {
    type: "module",
    deno: {
      permissions: {
        read: readPaths,
        write: writePaths.length > 0 ? writePaths : false,
        net: false,
        env: false,
        run: false,
        ffi: false,
        sys: false,
        import: false,
      },
    },
  });
}

/**
 * The session's link worker (shared/link_worker.ts, contract §28), whose Deno permissions reach exactly `sockets` (and
 * read and write the socket folder, where they are) and run exactly `command`.
 */
export function spawnLinkWorker(
  folder: string,
  sockets: readonly string[],
  command: string,
  url: URL = WORKER_MODULES.link,
): Worker {
  return new Worker(url, {
    type: "module",
    deno: {
      permissions: {
        read: [folder],
        write: [folder],
        net: sockets.map((s) => `unix:${s}`),
        run: [command],
        env: false,
        ffi: false,
        sys: false,
        import: false,
      },
    },
  });
}
