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
   * listing of `path`, so reading it whole costs no system call and no stream is needed
   * (and the walk asks no `lstat` of the folder to know whether it is huge).
   */
  holdsListing?(path: string): boolean;
  /** Resolves every link in a path. */
  realPath(path: string): string;
  /**
   * Reads a text file's content, checked on disk at read time (contract §17): a regular
   * file (lstat, not following a link; never a FIFO or device, which is not opened), of at
   * most `maxBytes`, still the file that was stat'ed once opened, read no further than
   * `maxBytes`. Ignore files only.
   *
   * @throws `Deno.errors.InvalidData` when it is not such a file, or is larger.
   */
  readTextFile(path: string, maxBytes: number): string;
}

/** {@linkcode FsPort.readTextFile} on the real file system. */
function readCheckedText(path: string, maxBytes: number): string {
  const before = Deno.lstatSync(path);
  if (!before.isFile) throw new Deno.errors.InvalidData("not a regular file");
  if (before.size > maxBytes) throw new Deno.errors.InvalidData("larger than its bound");
  const file = Deno.openSync(path, { read: true });
  try {
    const now = file.statSync();
    if (!now.isFile || now.ino !== before.ino || now.dev !== before.dev) {
      throw new Deno.errors.InvalidData("changed while it was opened");
    }
    // Sized by the file, grown (up to one byte past the bound) only if it grows meanwhile.
    let buffer = new Uint8Array(Math.min(now.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) break;
        const longer = new Uint8Array(Math.min(length * 2, maxBytes + 1));
        longer.set(buffer);
        buffer = longer;
      }
      const n = file.readSync(buffer.subarray(length));
      if (n === null) break;
      length += n;
    }
    if (length > maxBytes) throw new Deno.errors.InvalidData("larger than its bound");
    return new TextDecoder().decode(buffer.subarray(0, length));
  } finally {
    file.close();
  }
}

/** The real file system, through Deno's synchronous calls (several times faster than async). */
export const denoFs: FsPort = {
  readDir: (path) => Deno.readDirSync(path),
  readDirStream: (path) => Deno.readDir(path),
  lstat: (path) => Deno.lstatSync(path),
  realPath: (path) => Deno.realPathSync(path),
  readTextFile: readCheckedText,
};
