/**
 * The file-system calls the server makes, behind a small interface so that tests can
 * simulate what a real tree cannot (an unknown birth time, an entry vanishing, a
 * directory swapped for a link mid-scan, a call that never returns).
 *
 * @module
 */

/** The synchronous calls a scan needs; each throws `Deno.errors.*` like Deno's own. */
export interface FsPort {
  /** Lists a directory, without following links in it. */
  readDir(path: string): Iterable<Deno.DirEntry>;
  /**
   * Lists a directory as a stream: slower per entry, but it never holds the whole
   * listing as Deno's entry objects (~400 bytes each) at once. For huge folders.
   */
  readDirStream(path: string): AsyncIterable<Deno.DirEntry>;
  /**
   * Stats an entry without following a link. Callers read the result at once: a port
   * that serves it from memory may reuse one object for every call.
   */
  lstat(path: string): Deno.FileInfo;
  /**
   * An optional capability of a port that keeps listings in memory: whether it holds the
   * listing of `path`, so reading it whole costs no system call and no stream is needed.
   */
  holdsListing?(path: string): boolean;
  /** Resolves every link in a path. */
  realPath(path: string): string;
  /** Reads a (small, regular) text file: ignore files only. */
  readTextFile(path: string): string;
}

/** The real file system, through Deno's synchronous calls (several times faster than async). */
export const denoFs: FsPort = {
  readDir: (path) => Deno.readDirSync(path),
  readDirStream: (path) => Deno.readDir(path),
  lstat: (path) => Deno.lstatSync(path),
  realPath: (path) => Deno.realPathSync(path),
  readTextFile: (path) => Deno.readTextFileSync(path),
};
