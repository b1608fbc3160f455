/**
 * The server's private folder (contract §13): the one thing it ever writes, made under the
 * OS temp folder (never under a root), holding the live index's barrier cookies (one
 * subfolder per root, written by that root's watch worker alone), removed when the server
 * stops. On Linux and macOS it is made in `/tmp` (so that `--allow-write=/tmp` and `/tmp` in
 * `--allow-read` are all it needs), else in the temp folder Deno names.
 *
 * Its process holds the lock of `held.lock` in it for its whole life (locked before the file
 * has that name, so none sees it free). A process killed before it could remove its folder
 * leaves that lock free: the next one to make a private folder in the same place removes the
 * folder (contract §28a: what a dead process left is cleaned by the next one).
 *
 * @module
 */
import { hostRules, isWithin } from "../../security/mod.ts";

const PREFIX = "file-time-search-";
/** The file whose lock says that the folder's process is alive. */
const HELD = "held.lock";
/** This process's private folders, each with its held lock. */
const holding = new Map<string, Deno.FsFile>();

/** The private folder (a real path), or why there is none. */
export type PrivateFolder = { path: string } | { path: null; why: string };

/**
 * Makes the private folder outside every root in `rootsReal` (real paths). The server must
 * be allowed to write it and to read it (the watch worker watches it).
 */
export function makePrivateFolder(rootsReal: readonly string[]): PrivateFolder {
  const places = Deno.build.os === "windows" ? [undefined] : ["/tmp", undefined];
  let why = "the server may not write in the temp folder";
  for (const dir of places) {
    if (dir !== undefined) {
      const denied = (["write", "read"] as const).filter((name) =>
        Deno.permissions.querySync({ name, path: dir }).state !== "granted"
      );
      if (denied.length > 0) {
        why = `the server may not ${denied.join(" or ")} ${dir}`;
        continue;
      }
    }
    let made: string;
    try {
      made = Deno.makeTempDirSync({ prefix: PREFIX, ...(dir ? { dir } : {}) });
    } catch {
      continue;
    }
    let path: string;
    try {
      path = Deno.realPathSync(made);
    } catch {
      removePrivateFolder(made); // made but not readable: no use, and not to be left behind
      why = "the server may not read in the temp folder";
      continue;
    }
    hold(path);
    sweepDead(path);
    if (!rootsReal.some((root) => isWithin(root, path))) return { path };
    removePrivateFolder(path);
    why = "the temp folder lies inside a root";
  }
  return { path: null, why };
}

/** Removes the private folder and what is in it; quietly, if it is gone already. */
export function removePrivateFolder(path: string): void {
  holding.get(path)?.close(); // and its lock with it
  holding.delete(path);
  try {
    Deno.removeSync(path, { recursive: true });
  } catch { /* gone, or never made */ }
}

/**
 * The folder of root number `n`'s cookies in the private folder at `privateFolder`, made
 * afresh (a stalled watch may have left cookies that never came back), owner only, the
 * private folder too if it was removed from outside (contract §13).
 *
 * @throws the error of the `mkdir` that failed.
 */
export function cookiesFolder(privateFolder: string, n: number): string {
  const cookies = `${privateFolder}${hostRules.sep}${n}`;
  try {
    Deno.removeSync(cookies, { recursive: true });
  } catch { /* not there yet */ }
  Deno.mkdirSync(cookies, { recursive: true, mode: 0o700 });
  return cookies;
}

/** Locks `held.lock` in the new folder `made` for this process's life (quietly, if it cannot). */
function hold(made: string): void {
  const named = `${made}${hostRules.sep}${HELD}`;
  const unnamed = `${named}.new`;
  try {
    const file = Deno.openSync(unnamed, { read: true, write: true, createNew: true, mode: 0o600 });
    try {
      if (!file.tryLockSync(true)) throw new Error("locked");
      Deno.renameSync(unnamed, named);
    } catch (err) {
      file.close();
      throw err;
    }
    holding.set(made, file);
  } catch { /* not held: never swept either (only a free held.lock is) */ }
}

/**
 * Removes the private folders beside `made` (this program's, in the same temp folder) whose
 * `held.lock` is free: their processes are gone. A folder without one is left as it is.
 */
function sweepDead(made: string): void {
  const at = made.lastIndexOf(hostRules.sep);
  const parent = made.slice(0, at) || hostRules.sep;
  let names: string[];
  try {
    names = [...Deno.readDirSync(parent)]
      .filter((e) => e.isDirectory && e.name.startsWith(PREFIX))
      .map((e) => e.name);
  } catch {
    return;
  }
  for (const name of names) {
    const folder = `${parent}${hostRules.sep}${name}`;
    if (folder === made) continue;
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(`${folder}${hostRules.sep}${HELD}`, { read: true, write: true });
    } catch {
      continue; // none (or not ours to open)
    }
    let dead = false;
    try {
      dead = file.tryLockSync(true);
    } catch { /* left as it is */ }
    file.close(); // before the removal: Windows removes no folder with a file open in it
    if (!dead) continue;
    try {
      Deno.removeSync(folder, { recursive: true });
    } catch { /* removed meanwhile by another, or not ours to remove */ }
  }
}
