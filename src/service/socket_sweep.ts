/**
 * A service's lock, and what dead services left (contract §28a): a service holds the lock
 * file beside its socket for its whole life and removes both at its end. A lock is held
 * only while the file at its path is the one locked (a lock taken on a file that was
 * removed meanwhile, by a sweep or a temp cleaner, is taken again on the new file), so a
 * service that finds another's lock free may remove it and its socket: nothing holds them.
 *
 * @module
 */

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

/** Takes the lock at `path` (made if it is not there); `null` when another holds it. */
export async function holdLock(path: string): Promise<HeldLock | null> {
  for (let tries = 0; tries < 5; tries++) {
    const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
    if (!(await file.tryLock(true))) {
      file.close();
      return null;
    }
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
