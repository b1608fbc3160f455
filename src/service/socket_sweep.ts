/**
 * A service's lock, and what dead services left (contract §28a): a service holds the lock
 * file beside its socket for its whole life and removes both at its end. A lock is held
 * only while the file at its path is the one locked (a lock taken on a file that was
 * removed meanwhile, by a sweep or a temp cleaner, is taken again on the new file), so a
 * service that finds another's lock free may remove it and its socket: nothing holds them.
 *
 * @module
 */

/** How long a lock held by another is looked at again: a sweep holds one only for a moment. */
const SWEEP_MOMENT_MS = 50;

/** A lock held; `release` removes its file (if it is still this one), then lets go. */
export interface HeldLock {
  release(): void;
  /** Whether the file at its path is still the one locked (not removed or replaced). */
  held(): boolean;
}

/** The inode of the file at `path`, or `null` when there is none. */
export function inodeAt(path: string): number | null {
  try {
    return Deno.lstatSync(path).ino;
  } catch {
    return null;
  }
}

/**
 * Takes the lock at `path`; `null` when another holds it. A new lock file is locked before
 * it has its name (made under a name of its own, then linked there): a sweep (`sweepDead`,
 * in any service or session) that opened it between its making and its locking would have
 * held it for that moment, and this service would have left its root as another's.
 */
export async function holdLock(path: string): Promise<HeldLock | null> {
  for (let tries = 0; tries < 5; tries++) {
    const file = (await lockedNew(path)) ?? await lockedThere(path);
    if (file === "gone") continue; // removed meanwhile (a sweep of a dead one's): again
    if (file === null) return null;
    const ino = file.statSync().ino;
    if (ino === null || inodeAt(path) === ino) {
      let released = false;
      return {
        held: () => ino === null || inodeAt(path) === ino,
        release() {
          if (released) return;
          released = true;
          if (ino !== null && inodeAt(path) === ino) {
            try {
              Deno.removeSync(path);
            } catch { /* gone */ }
          }
          file.close(); // and its lock with it
        },
      };
    }
    file.close(); // removed under us: take the new file's lock
  }
  return null;
}

/**
 * A new lock file at `path`, locked before it is linked there; `null` when a file is there
 * already (or links cannot be made here: that file is then opened and locked as it is).
 */
async function lockedNew(path: string): Promise<Deno.FsFile | null> {
  const unnamed = `${path}.${Deno.pid}-${crypto.randomUUID()}.new`;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(unnamed, { read: true, write: true, createNew: true, mode: 0o600 });
  } catch {
    return null;
  }
  try {
    if (!(await file.tryLock(true))) throw new Error("locked"); // none else knows its name
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

/**
 * The lock file at `path` (made if there is none), locked: `null` when another holds it,
 * `"gone"` when it was removed while it was held for a moment (by a sweep).
 */
async function lockedThere(path: string): Promise<Deno.FsFile | null | "gone"> {
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  if (await file.tryLock(true)) return file;
  const ino = file.statSync().ino;
  file.close();
  // A sweep holds a lock it finds free only while it removes it: a moment, then it is gone.
  await new Promise((resolve) => setTimeout(resolve, SWEEP_MOMENT_MS));
  return ino !== null && inodeAt(path) !== ino ? "gone" : null;
}

/**
 * Removes, in the socket folder, every lock that no service holds and the socket beside
 * it (left by services that died), except those named in `own`.
 */
export function sweepDead(folder: string, own: ReadonlySet<string>): void {
  let names: string[];
  try {
    names = [...Deno.readDirSync(folder)].map((e) => e.name);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith(".lock") || own.has(name.slice(0, -".lock".length))) continue;
    const lock = `${folder}/${name}`;
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(lock, { read: true, write: true });
    } catch {
      continue;
    }
    try {
      if (!file.tryLockSync(true)) continue;
      const ino = file.statSync().ino;
      if (ino === null || inodeAt(lock) !== ino) continue;
      const socket = `${folder}/${name.slice(0, -".lock".length)}.sock`;
      try {
        if (Deno.lstatSync(socket).isSocket) Deno.removeSync(socket);
      } catch { /* none */ }
      Deno.removeSync(lock);
    } catch {
      /* left as it is */
    } finally {
      file.close();
    }
  }
}
