/**
 * Real temporary trees on disk with chosen modification times.
 *
 * @module
 */
import path from "node:path";

/** One entry of a tree: a file (default), a directory, or a symlink. */
export type EntrySpec =
  | { kind?: "file"; mtime?: number; content?: string }
  | { kind: "dir"; mtime?: number }
  | { kind: "symlink"; target: string };

/** A tree: root-relative `/` paths to entries. Parent directories are made as needed. */
export type TreeSpec = Record<string, EntrySpec>;

/** A temporary tree; `dispose()` removes it. */
export interface TempTree {
  root: string;
  /** Absolute path of a root-relative path. */
  abs(rel: string): string;
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A fixed instant the tests count from: 2025-06-01T00:00:00Z. */
export const T0 = Date.UTC(2025, 5, 1);
/** Milliseconds in a day. */
export const DAY = 86_400_000;

/** Sets an entry's modification (and access) time to `ms`, epoch milliseconds. */
export function touch(path: string, ms: number): void {
  Deno.utimeSync(path, new Date(ms), new Date(ms));
}

/** An instant in epoch ms, as the tool takes and gives times. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Makes the tree under a new temp dir. Times are set after every entry exists, deepest
 * first, so that creating children does not change a directory's time afterwards.
 */
export async function makeTree(spec: TreeSpec, prefix = "fts-"): Promise<TempTree> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  const abs = (rel: string) => rel === "" ? root : path.join(root, ...rel.split("/"));
  const times: [string, number][] = [];
  for (const [rel, entry] of Object.entries(spec)) {
    const target = abs(rel);
    await Deno.mkdir(path.dirname(target), { recursive: true });
    if (entry.kind === "dir") {
      await Deno.mkdir(target, { recursive: true });
    } else if (entry.kind === "symlink") {
      await Deno.symlink(entry.target, target);
      continue;
    } else {
      await Deno.writeTextFile(target, entry.content ?? rel);
    }
    if (entry.mtime !== undefined) times.push([target, entry.mtime]);
  }
  times.sort((a, b) => b[0].length - a[0].length);
  for (const [target, mtime] of times) {
    await Deno.utime(target, new Date(mtime), new Date(mtime));
  }
  const dispose = () => Deno.remove(root, { recursive: true });
  return { root, abs, dispose, [Symbol.asyncDispose]: dispose };
}
