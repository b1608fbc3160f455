/**
 * Test-only changes to how a scan worker reads: simulated time, slow or failing disks,
 * a call that hangs, and layer 1 switched off. They reach a server started by
 * {@linkcode connect} (server.ts) through `seam_main.ts` and `seam_worker.ts`; the
 * product has no switch for any of them.
 *
 * @module
 */
import type { Clock } from "../../src/ports/clock.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs, type FsPort } from "../../src/ports/fs.ts";
import type { ScanTools } from "../../src/walk/scan.ts";
import { type Guard, strictGuard } from "../../src/security/guard.ts";
import { hostRules } from "../../src/security/path_guard.ts";

/** A simulated failure: calls on `path` or below it throw the named `Deno.errors` kind. */
export interface Fault {
  path: string;
  error: "PermissionDenied" | "NotFound" | "Busy";
}

/** The seam's settings; every one is optional. */
export interface TestSeam {
  /** The clock moves this many ms each time it is read (deterministic time-outs). */
  clockStepMs?: number;
  /** Each file-system call takes this many ms of (simulated) time: a slow disk. */
  fsDelayMs?: number;
  /** A file-system call on this absolute path or below it hangs until the worker is stopped. */
  stallOn?: string;
  /** Only this kind of call hangs under `stallOn` (default: any). */
  stallIn?: "readDir" | "lstat" | "realPath";
  /**
   * Only the n-th and later such calls hang (default 1: every one), e.g. 2 to let the
   * index's fill through and stall the first call after it.
   */
  stallFrom?: number;
  /** How long a stall lasts (a slow disk); default: until the worker is stopped. */
  stallMs?: number;
  /** File-system calls on these absolute paths fail. */
  faults?: Fault[];
  /** Switch off layer 1 (lexical and realpath checks) to show that layer 2 holds alone. */
  disableGuard?: boolean;
  /** The file system records no birth times (as on many Linux file systems and mounts). */
  noBirthTimes?: boolean;
  /** Report progress (and the walk boundary) before every entry, not every 250 ms. */
  progressEveryEntry?: boolean;
  /**
   * The live index counts an answer its cut left uncounted only within this many entries
   * (index_loop.ts `COUNT_BUDGET`); set, the server's index workers take it (seam_main.ts).
   */
  countBudget?: number;
  /**
   * A folder that keeps changing: until it has been listed `churnReads` times, each lstat
   * of it gives a new modified time (a build writing in it), so no answer over it settles.
   */
  churnOn?: string;
  /** How many listings of `churnOn` see it change (default 0: it never does). */
  churnReads?: number;
  /**
   * The index worker tells each scan it is given, as `{order, limit, from, to}`, on the
   * `BroadcastChannel` of this name (seam_index_worker.ts).
   */
  scansChannel?: string;
}

/** No checks at all: layer 1 switched off. */
export const disabledGuard: Guard = {
  relativePath: (input) => input.replaceAll("\\", "/"),
  inside: () => true,
};

/**
 * A clock that starts at `start` and moves `stepMs` forward each time it is read:
 * scan time-outs become deterministic.
 */
export function steppingClock(start: number, stepMs: number): Clock {
  let t = start;
  return {
    now() {
      const value = t;
      t += stepMs;
      return value;
    },
  };
}

/** The real tools, changed as the seam says. */
export function seamTools(seam: TestSeam): ScanTools {
  let now = Date.now();
  const clock: Clock = seam.clockStepMs !== undefined
    ? steppingClock(now, seam.clockStepMs)
    : seam.fsDelayMs !== undefined
    ? { now: () => now }
    : systemClock;
  const under = (p: string, root: string) => p === root || p.startsWith(root + hostRules.sep);
  let stallable = 0;
  const before = (p: string, call: "readDir" | "lstat" | "realPath") => {
    if (seam.fsDelayMs !== undefined) now += seam.fsDelayMs;
    const stalls = seam.stallIn === undefined || seam.stallIn === call;
    if (
      seam.stallOn !== undefined && stalls && under(p, seam.stallOn) &&
      ++stallable >= (seam.stallFrom ?? 1)
    ) {
      // Block this worker thread (no CPU spin) until it is terminated.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, seam.stallMs ?? 600_000);
    }
    const fault = seam.faults?.find((f) => under(p, f.path));
    if (fault) throw new Deno.errors[fault.error](`simulated ${fault.error}`);
  };
  let churned = 0; // listings of churnOn
  let tick = 0;
  const listed = (p: string) => {
    before(p, "readDir");
    if (p === seam.churnOn) churned++;
  };
  const churns = (p: string) => p === seam.churnOn && churned <= (seam.churnReads ?? 0);
  const fs: FsPort = {
    readDir: (p) => (listed(p), denoFs.readDir(p)),
    readDirStream: (p) => (listed(p), denoFs.readDirStream(p)),
    lstat: (p) => {
      before(p, "lstat");
      const info = denoFs.lstat(p);
      const mtime = churns(p) ? new Date(Date.now() + ++tick * 1000) : info.mtime;
      return { ...info, mtime, ...(seam.noBirthTimes ? { birthtime: null } : {}) };
    },
    realPath: (p) => (before(p, "realPath"), denoFs.realPath(p)),
    readTextFile: (p, max) => (before(p, "lstat"), denoFs.readTextFile(p, max)),
  };
  return {
    fs,
    clock,
    guard: seam.disableGuard ? disabledGuard : strictGuard,
    ...(seam.progressEveryEntry ? { progressIntervalMs: 0 } : {}),
  };
}

/** The entry module of a scan worker that reads through a seam, with the seam in its URL. */
export function seamWorkerUrl(seam: TestSeam, module = "./seam_worker.ts"): URL {
  const url = new URL(module, import.meta.url);
  url.searchParams.set("seam", JSON.stringify(seam));
  return url;
}

/** The entry module of an index worker whose index reads the disk through a seam. */
export function seamIndexWorkerUrl(seam: TestSeam): URL {
  return seamWorkerUrl(seam, "./seam_index_worker.ts");
}
