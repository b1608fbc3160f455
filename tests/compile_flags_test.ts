/**
 * `deno compile` cannot run here (its runtime comes from dl.deno.land), so this checks
 * that every compile task carries what `deno task start` runs with (DECISIONS §13):
 * `--allow-read` (narrowed per worker at run time), the same `--allow-env` and V8
 * flags, nothing else, and the worker module, which compile does not find by itself.
 */
import assert from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import { ALLOW_ENV, V8_FLAGS } from "../src/runtime_flags.ts";

const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
  "aarch64-pc-windows-msvc",
];
const tasks = denoJson.tasks as Record<string, string>;
const words = (task: string) => task.split(/\s+/);
const flags = (task: string) =>
  words(task).filter((w) => w.startsWith("--allow-") || w.startsWith("--v8-flags"));

Deno.test("compile tasks exist for the host and all six targets", () => {
  assert.ok(tasks.compile);
  for (const target of TARGETS) {
    const task = tasks[`compile:${target}`];
    assert.ok(task, target);
    const w = words(task);
    assert.equal(w[w.indexOf("--target") + 1], target);
    assert.equal(w[w.indexOf("--output") + 1], `dist/file-time-search-${target}`);
  }
});

Deno.test("compile tasks carry the start task's permissions and V8 flags, and the worker", () => {
  const start = flags(tasks.start!).sort();
  assert.deepEqual(start, ["--allow-read", ALLOW_ENV, V8_FLAGS].sort());
  for (const name of ["compile", ...TARGETS.map((t) => `compile:${t}`)]) {
    const task = tasks[name]!;
    assert.deepEqual(flags(task).sort(), start, name);
    const w = words(task);
    assert.equal(w[w.indexOf("--include") + 1], "src/search/scan_worker.ts", name);
    assert.equal(w[w.length - 1], "main.ts", name);
  }
  // The worker's Deno permissions need this at run time; compile embeds it from deno.json.
  assert.ok((denoJson.unstable as string[]).includes("worker-options"));
});

Deno.test("the worker module the compile tasks include is the one the server starts", async () => {
  const { WORKER_URL } = await import("../src/search/scanner.ts");
  assert.ok(WORKER_URL.pathname.endsWith("/src/search/scan_worker.ts"));
});
