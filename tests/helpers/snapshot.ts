/**
 * What the disk holds, by an `lstat` walk (links not followed), and the net changes
 * between two such snapshots as contract §24 defines them: created, removed, modified
 * (kind, size, a time or the inode differs). Renames are a server's knowledge: a rename it reports
 * is matched here as the removal of its previous path and the creation of its path.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";

/** One entry as `lstat` saw it. */
export interface Seen {
  isDirectory: boolean;
  size: number;
  mtime: number;
  /** Created time (contract §7), and the inode: another file put in the place has others. */
  birth: number | null;
  ino: number | null;
}

/** Every entry under `root`, by root-relative `/` path. */
export function snapshot(root: string): Map<string, Seen> {
  const out = new Map<string, Seen>();
  const visit = (dir: string, rel: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const abs = join(dir, entry.name);
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(abs);
      } catch {
        continue;
      }
      out.set(path, {
        isDirectory: info.isDirectory,
        size: info.isDirectory ? 0 : info.size,
        mtime: info.mtime!.getTime(),
        birth: info.birthtime?.getTime() ?? null,
        ino: info.ino,
      });
      if (info.isDirectory) visit(abs, path);
    }
  };
  visit(root, "");
  return out;
}

/** One change as the tests compare them. */
export interface NetChange {
  path: string;
  change: "created" | "modified" | "removed";
}

/** The net changes from `before` to `after`, in path order. */
export function diff(before: Map<string, Seen>, after: Map<string, Seen>): NetChange[] {
  const out: NetChange[] = [];
  for (const [path, then] of before) {
    const now = after.get(path);
    if (!now) out.push({ path, change: "removed" });
    else if (
      now.isDirectory !== then.isDirectory || now.size !== then.size ||
      now.mtime !== then.mtime || now.birth !== then.birth || now.ino !== then.ino
    ) out.push({ path, change: "modified" });
  }
  for (const path of after.keys()) if (!before.has(path)) out.push({ path, change: "created" });
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** A server's change, as `fs.changes_since` gives it. */
export interface ServerChange {
  path: string;
  change: string;
  previousPath?: string;
  isDirectory: boolean;
}

/**
 * The server's changes as the tests compare them: a rename as its previous path removed
 * and its path created. `written`: paths the test wrote without moving any time (the
 * server may say `modified` of them; a snapshot cannot).
 */
export function asDiff(changes: readonly ServerChange[]): NetChange[] {
  const out: NetChange[] = [];
  for (const c of changes) {
    if (c.change === "renamed") {
      out.push({ path: c.path, change: "created" });
      out.push({ path: c.previousPath!, change: "removed" });
    } else out.push({ path: c.path, change: c.change as NetChange["change"] });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Asserts the server's changes are the snapshots' net changes. */
export function assertSameChanges(
  got: readonly ServerChange[],
  before: Map<string, Seen>,
  after: Map<string, Seen>,
  what: string,
): void {
  assert.deepEqual(asDiff(got), diff(before, after), what);
}
