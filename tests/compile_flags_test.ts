/**
 * `deno compile` cannot run here (its runtime comes from dl.deno.land), so this checks
 * what the compile script would run: every target carries the start task's flags
 * (contract §13: `--allow-read`, narrowed per worker at run time, the `--allow-env` list
 * and the V8 flags) and the worker module, which compile does not find by itself.
 */
import assert from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import { compileArgs, TARGETS, WORKER_MODULE } from "../.github/scripts/compile.ts";
import { ALLOW_ENV, V8_FLAGS } from "../src/runtime_flags.ts";
import { WORKER_URL } from "../src/search/scanner.ts";

Deno.test("compile script: every target gets the start task's flags, the worker and its output", () => {
  for (const target of [null, ...TARGETS]) {
    const args = compileArgs(target);
    const flags = args.filter((a) => a.startsWith("--allow-") || a.startsWith("--v8-flags"));
    assert.deepEqual(flags.sort(), ["--allow-read", ALLOW_ENV, V8_FLAGS].sort(), String(target));
    assert.equal(args[args.indexOf("--include") + 1], WORKER_MODULE);
    assert.equal(args.at(-1), "main.ts");
    if (target !== null) {
      assert.equal(args[args.indexOf("--target") + 1], target);
      assert.equal(args[args.indexOf("--output") + 1], `dist/file-time-search-${target}`);
    }
  }
  // The worker's Deno permissions need this at run time; compile embeds it from deno.json.
  assert.ok((denoJson.unstable as string[]).includes("worker-options"));
});

Deno.test("compile script: the worker module it includes is the one the server starts", () => {
  assert.ok(WORKER_URL.pathname.endsWith(`/${WORKER_MODULE}`));
});

Deno.test("compile script: --dry-run prints one command per target for 'all'", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-env", ".github/scripts/compile.ts", "all", "--dry-run"],
    cwd: new URL("..", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  assert.equal(lines.length, TARGETS.length);
  for (const [i, target] of TARGETS.entries()) {
    assert.match(lines[i]!, new RegExp(`--target ${target} `));
  }
});
