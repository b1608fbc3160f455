/**
 * The Deno flags the server runs with, read from the one place they are written:
 * `deno.json`'s `start` task. The compile script (`.github/scripts/compile.ts`), the
 * tests, the benchmark and the examples all take them from here.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };

/**
 * The flags of `deno task start`, between `deno run` and `main.ts`: `--quiet`,
 * `--allow-read`, `--allow-write=/tmp` (only for the server's private folder of the live
 * index's barrier cookies, contract §13), `--allow-env` with exactly the variables the
 * server reads, and the
 * V8 heap settings, which Deno applies to every isolate, each worker's included (a small
 * young generation and a capped old one keep the peak memory of a million-entry scan under
 * 200 MB, docs/benchmarks-history.md; the live index's memory budget is half of its worker's heap
 * limit, 70 MB with these, docs/index.md).
 */
export const SERVER_FLAGS: readonly string[] = Object.freeze(
  denoJson.tasks.start.split(/\s+/).filter((word) => word.startsWith("--")),
);

function flag(prefix: string): string {
  const found = SERVER_FLAGS.find((f) => f.startsWith(prefix));
  if (found === undefined) throw new Error(`deno.json's start task has no ${prefix} flag`);
  return found;
}

/** `--v8-flags=...` of the start task. */
export const V8_FLAGS: string = flag("--v8-flags=");

/** `--allow-write=...` of the start task: the temp folder, where the private folder is made. */
export const ALLOW_WRITE: string = flag("--allow-write=");

/** `--allow-env=...` of the start task. */
export const ALLOW_ENV: string = flag("--allow-env=");
