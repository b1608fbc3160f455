/**
 * Test-only changes to a scan worker's behaviour, set through the
 * `FILE_TIME_SEARCH_TEST_SEAM` environment variable (JSON). They simulate what a real
 * tree on a test machine cannot show: time passing, slow or failing disks, a scan that
 * hangs, and layer 1 switched off. Production never sets them.
 *
 * @module
 */
import { disabledGuardForTests, type Guard, strictGuard } from "../security/guard.ts";
import { hostRules } from "../security/path_guard.ts";
import { type Clock, steppingClock, systemClock } from "./clock.ts";
import { denoFs, type FsPort } from "./fs_port.ts";

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
  /** A file-system call on this absolute path or below it hangs until the scan is cancelled. */
  stallOn?: string;
  /** File-system calls on these absolute paths fail. */
  faults?: Fault[];
  /** Switch off layer 1 (lexical and realpath checks) to show that layer 2 holds alone. */
  disableGuard?: boolean;
}

/** What a worker scans with. */
export interface ScanTools {
  fs: FsPort;
  clock: Clock;
  guard: Guard;
}

const SEP = hostRules.sep;

/** The real tools, changed as the seam says. */
export function scanTools(seam: TestSeam | undefined): ScanTools {
  if (!seam) return { fs: denoFs, clock: systemClock, guard: strictGuard };
  let now = Date.now();
  const clock: Clock = seam.clockStepMs !== undefined
    ? steppingClock(now, seam.clockStepMs)
    : seam.fsDelayMs !== undefined
    ? { now: () => now }
    : systemClock;
  const under = (p: string, root: string) => p === root || p.startsWith(root + SEP);
  const before = (p: string) => {
    if (seam.fsDelayMs !== undefined) now += seam.fsDelayMs;
    if (seam.stallOn !== undefined && under(p, seam.stallOn)) {
      // Block this worker thread (no CPU spin) until it is terminated.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600_000);
    }
    const fault = seam.faults?.find((f) => under(p, f.path));
    if (fault) throw new Deno.errors[fault.error](`simulated ${fault.error}`);
  };
  const fs: FsPort = {
    readDir: (p) => (before(p), denoFs.readDir(p)),
    readDirStream: (p) => (before(p), denoFs.readDirStream(p)),
    lstat: (p) => (before(p), denoFs.lstat(p)),
    realPath: (p) => (before(p), denoFs.realPath(p)),
  };
  return { fs, clock, guard: seam.disableGuard ? disabledGuardForTests : strictGuard };
}
