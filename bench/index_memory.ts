/**
 * What the live index costs in memory (contract §18's budget): fills a `TreeCache` from a
 * benchmark tree the way an indexing walk does (each folder listed, each entry stat'ed),
 * then measures the heap it holds after full collections, beside the estimate the budget
 * counts with (`namesBytes`), the bytes it holds outside the heap (its columns), and how
 * long one round of the background check of folder times takes. Run: `deno task bench:index-memory [tree]` (default
 * `home-200k`); numbers go to docs/index.md.
 */
import { getHeapStatistics } from "node:v8";
import path from "node:path";
import { TreeCache } from "../src/index/cache/tree_cache.ts";
import { FolderSweep } from "../src/index/cache/folder_sweep.ts";
import { denoFs } from "../src/ports/fs.ts";
import { ensureTree } from "./tree.ts";

const size = Deno.args[0] ?? "home-200k";
const { root, entries } = ensureTree(
  path.join(Deno.env.get("TMPDIR") ?? "/tmp", "fts-bench"),
  size,
);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");

function heapUsed(): number {
  for (let i = 0; i < 3; i++) gc!();
  return getHeapStatistics().used_heap_size;
}

const before = heapUsed();
const cache = new TreeCache({ base: denoFs, rootReal: root, maxEntries: Infinity });
cache.record(true);
let folders = 0;
const stack = [root];
while (stack.length > 0) {
  const dir = stack.pop()!;
  folders++;
  const names: string[] = [];
  for (const e of cache.readDir(dir)) {
    names.push(e.name);
    if (e.isDirectory) stack.push(path.join(dir, e.name));
  }
  for (const name of names) cache.lstat(path.join(dir, name));
}
cache.begin(); // as the next scan would: what a scan keeps for itself goes
const held = heapUsed() - before;
// One whole round of the background check of folder times (folder_sweep.ts), timed.
const sweepStart = performance.now();
const swept = new FolderSweep().step(cache, {});
const sweepMs = performance.now() - sweepStart;
const rss = Deno.memoryUsage().rss;
console.log(JSON.stringify({
  tree: size,
  entries: cache.entries,
  treeEntries: entries,
  folders,
  heapBytesPerEntry: +(held / cache.entries).toFixed(1),
  estimatedBytesPerEntry: +(cache.bytes / cache.entries).toFixed(1),
  offHeapBytesPerEntry: +(cache.offHeapBytes / cache.entries).toFixed(1),
  estimateOverHeap: +(cache.bytes / held).toFixed(2),
  heapMB: +(held / 2 ** 20).toFixed(1),
  rssMB: +(rss / 2 ** 20).toFixed(1),
  heapLimitMB: +(getHeapStatistics().heap_size_limit / 2 ** 20).toFixed(0),
  sweptFolders: swept,
  sweepMicrosPerFolder: +(sweepMs * 1000 / swept).toFixed(2),
  // At 2% of one core, a round takes (its time / 0.02).
  sweepRoundAtTwoPercentS: +(sweepMs / 0.02 / 1000).toFixed(1),
}));
