/**
 * The server's private folder (contract §13): the one thing it ever writes, made under the
 * OS temp folder (never under a root), holding the live index's barrier cookies (one
 * subfolder per root, written by that root's watch worker alone), removed when the server
 * stops. On Linux and macOS it is made in `/tmp` (so that `--allow-write=/tmp` and `/tmp` in
 * `--allow-read` are all it needs), else in the temp folder Deno names.
 *
 * @module
 */
import { hostRules, isWithin } from "../../security/mod.ts";

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
      made = Deno.makeTempDirSync({ prefix: "file-time-search-", ...(dir ? { dir } : {}) });
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
    if (!rootsReal.some((root) => isWithin(root, path))) return { path };
    removePrivateFolder(path);
    why = "the temp folder lies inside a root";
  }
  return { path: null, why };
}

/** Removes the private folder and what is in it; quietly, if it is gone already. */
export function removePrivateFolder(path: string): void {
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
