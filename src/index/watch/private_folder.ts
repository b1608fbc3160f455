/**
 * The server's private folder (contract §13): the one thing it ever writes, made under the
 * OS temp folder (never under a root), holding the live index's barrier cookies (one
 * subfolder per root, written by that root's watch worker alone), removed when the server
 * stops. On Linux and macOS it is made in `/tmp` (so that `--allow-write=/tmp` and `/tmp` in
 * `--allow-read` are all it needs), else in the temp folder Deno names.
 *
 * @module
 */
import { isWithin } from "../../security/mod.ts";

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
