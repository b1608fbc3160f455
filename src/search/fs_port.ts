/**
 * The file-system calls a scan makes, behind a small interface so that tests can
 * simulate what a real tree cannot (an unknown birth time, an entry vanishing, a
 * directory swapped for a link mid-scan).
 *
 * @module
 */
import { hostRules } from "../security/path_guard.ts";

const SEP = hostRules.sep;

/** The synchronous calls a scan needs; each throws `Deno.errors.*` like Deno's own. */
export interface FsPort {
  /** Lists a directory, without following links in it. */
  readDir(path: string): Iterable<Deno.DirEntry>;
  /** Stats an entry without following a link. */
  lstat(path: string): Deno.FileInfo;
  /** Resolves every link in a path. */
  realPath(path: string): string;
}

/** The real file system, through Deno's synchronous calls (several times faster than async). */
export const denoFs: FsPort = {
  readDir: (path) => Deno.readDirSync(path),
  lstat: (path) => Deno.lstatSync(path),
  realPath: (path) => Deno.realPathSync(path),
};

/** A simulated failure: calls on `path` or below it throw the named `Deno.errors` kind. */
export interface Fault {
  path: string;
  error: "PermissionDenied" | "NotFound" | "Busy";
}

/**
 * Wraps a port so that calls on some paths fail (a test seam for what a real tree
 * cannot show when tests run as root: unreadable folders, unexpected I/O errors).
 */
export function withFaults(base: FsPort, faults: readonly Fault[]): FsPort {
  const check = (p: string) => {
    const fault = faults.find((f) => p === f.path || p.startsWith(f.path + SEP));
    if (fault) throw new Deno.errors[fault.error](`simulated ${fault.error}`);
  };
  return {
    readDir: (p) => (check(p), base.readDir(p)),
    lstat: (p) => (check(p), base.lstat(p)),
    realPath: (p) => (check(p), base.realPath(p)),
  };
}
