/**
 * Where an event under a link really happened (contract §18): the runtime's recursive
 * watch follows links to folders when it adds watches, so a folder reachable through a
 * link inside the root reports its events under the path the runtime walked last.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import { hostRules } from "../../security/mod.ts";

/**
 * The real path of folder `dir` (through links), or of the nearest folder above it that
 * is still there with the rest of `dir` after it, when it lies inside the root `root`;
 * `null` when it leads out of the root.
 */
export function realFolder(fs: FsPort, root: string, dir: string): string | null {
  const sep = hostRules.sep;
  for (let end = dir.length; end > root.length; end = dir.lastIndexOf(sep, end - 1)) {
    let real: string;
    try {
      real = fs.realPath(dir.slice(0, end));
    } catch {
      continue; // gone: try the folder above
    }
    const at = real + dir.slice(end);
    return at === root || at.startsWith(root + sep) ? at : null;
  }
  return dir;
}
