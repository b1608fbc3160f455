/**
 * A lock file that is locked before it has its name (contract §28a): made under a name of its
 * own, locked, then linked to its name. Another process that sweeps what dead processes left
 * (a lock it finds free is a dead one's, and it takes it for the moment it removes it) never
 * finds such a lock there unlocked. A service's socket lock and a private folder's
 * `held.lock` are made so.
 *
 * @module
 */

/**
 * The new lock file at `path`, locked and open; `null` when a file is at `path` already, or
 * it could not be made, locked or linked there (then nothing of it is left).
 */
export function lockedNew(path: string): Deno.FsFile | null {
  const unnamed = `${path}.${Deno.pid}-${crypto.randomUUID()}.new`;
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(unnamed, { read: true, write: true, createNew: true, mode: 0o600 });
  } catch {
    return null;
  }
  try {
    if (!file.tryLockSync(true)) throw new Error("locked"); // none else knows its name
    Deno.linkSync(unnamed, path);
    return file;
  } catch {
    file.close();
    return null;
  } finally {
    try {
      Deno.removeSync(unnamed);
    } catch { /* gone */ }
  }
}
