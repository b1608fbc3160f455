/**
 * What a walk given up costs (docs/behaviour.md, "Stuck file systems"): on the 500k tree,
 * one walk alone, then two walks cancelled 150 ms after each started and one whole walk,
 * each through the server's own scan workers; the wall time and this process's CPU time
 * (its workers' threads included). A walk cancelled should cost about what it read by
 * then, not a whole walk. Run: `deno task bench:cancelled-walks`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import path from "node:path";
import os from "node:os";
import { ensureTree } from "./tree.ts";
import { WorkerScanner } from "../src/workers/scanner.ts";
import { DEFAULT_LIMITS } from "../src/config.ts";
import { EVERY_FILE, type SearchRequest } from "../src/query/request.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    size: { type: "string", default: "500k" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
  },
});
const { root } = ensureTree(values.dir, values.size);
/** This process's CPU time (s), from `/proc` (Linux). */
const cpu = () => {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const request: SearchRequest = {
  root: { path: root, realPath: root },
  start: { path: "", recursive: true, maxDepth: null },
  filter: { ...EVERY_FILE, exclude: [] },
  order: "time_desc",
  limit: 100,
  after: null,
  limits: { ...DEFAULT_LIMITS, maxFilesScanned: 1e7, maxDirectoriesScanned: 1e7 },
};
const scanner = new WorkerScanner({ readPaths: [root], idle: 2 });
await scanner.run(request); // the workers warm, the tree in the page cache
const timed = async (what: string, work: () => Promise<unknown>) => {
  const [c0, t0] = [cpu(), performance.now()];
  await work();
  console.log(`| ${what} | ${(performance.now() - t0).toFixed(0)} | ${(cpu() - c0).toFixed(2)} |`);
};
console.log(`| ${values.size} | wall, ms | CPU, s |\n|---|---:|---:|`);
await timed("one walk", () => scanner.run(request));
await timed("two walks cancelled at 150 ms, then one whole", async () => {
  const runs: Promise<unknown>[] = [];
  for (let i = 0; i < 2; i++) {
    const control = new AbortController();
    runs.push(scanner.run(request, { signal: control.signal }).catch(() => {}));
    await new Promise((resolve) => setTimeout(resolve, 150));
    control.abort();
  }
  await Promise.all([...runs, scanner.run(request)]);
});
scanner.close();
