/**
 * The server's private folder (contract §13): the one thing it ever writes, made under the
 * OS temp folder (never under a root), holding the live index's barrier cookies (one
 * subfolder per root, written by that root's watch worker alone), removed when the server
 * stops. On Linux and macOS it is made in `/tmp` (so that `--allow-write=/tmp` is all it
 * needs), else in the temp folder Deno names.
 *
 * @module
 */
import { isWithin } from "../security/mod.ts";

/** The private folder (a real path), or why there is none. */
export type PrivateFolder = { path: string } | { path: null; why: string };

/** Makes the private folder outside every root in `rootsReal` (real paths). */
export function makePrivateFolder(rootsReal: readonly string[]): PrivateFolder {
  const places = Deno.build.os === "windows" ? [undefined] : ["/tmp", undefined];
  let why = "the server may not write in the temp folder";
  for (const dir of places) {
    let path: string;
    try {
      const made = Deno.makeTempDirSync({ prefix: "file-time-search-", ...(dir ? { dir } : {}) });
      path = Deno.realPathSync(made);
    } catch {
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
