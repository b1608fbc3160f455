/**
 * `deno compile` cannot run here (its runtime comes from dl.deno.land), so this checks
 * what the compile script would run: every target carries the start task's flags
 * (contract §13: `--allow-read`, narrowed per worker at run time, `--allow-write=/tmp` for
 * the private folder, the `--allow-env` list, the V8 flags, and `--allow-net` and
 * `--allow-run`, which only the link worker keeps, for its roots' services, contract §28) and every worker module (contract §18), which compile does not find
 * by itself; and that the list of worker modules is whole: every module the source hands
 * to a worker is on it.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import denoJson from "../deno.json" with { type: "json" };
import { compileArgs, TARGETS, WORKER_FILES } from "../.github/scripts/compile.ts";
import { ALLOW_ENV, ALLOW_WRITE, V8_FLAGS } from "../src/runtime_flags.ts";
import { WORKER_MODULES } from "../src/worker_modules.ts";
import { BUILD_STAMP, buildOf, codeDigest } from "../src/wire/build.ts";

const REPOSITORY = fileURLToPath(new URL("..", import.meta.url));

Deno.test("compile script: every target gets the start task's flags, every worker and its output", () => {
  for (const target of [null, ...TARGETS]) {
    const args = compileArgs(target);
    const flags = args.filter((a) => a.startsWith("--allow-") || a.startsWith("--v8-flags"));
    assert.deepEqual(
      flags.sort(),
      ["--allow-read", ALLOW_WRITE, ALLOW_ENV, V8_FLAGS, "--allow-net", "--allow-run"].sort(),
      String(target),
    );
    const included = args.flatMap((a, i) => (args[i - 1] === "--include" ? [a] : []));
    assert.deepEqual(included.sort(), [
      "build_stamp.json",
      "src/index/answer/index_worker.ts",
      "src/index/fill/fill_worker.ts",
      "src/index/watch/watch_worker.ts",
      "src/link/link_worker.ts",
      "src/workers/scan_worker.ts",
    ]);
    assert.equal(args.at(-1), "main.ts");
    if (target !== null) {
      assert.equal(args[args.indexOf("--target") + 1], target);
      assert.equal(args[args.indexOf("--output") + 1], `dist/file-time-search-${target}`);
    }
  }
  // The worker's Deno permissions need this at run time; compile embeds it from deno.json.
  assert.ok((denoJson.unstable as string[]).includes("worker-options"));
});

Deno.test("compile script: the build's stamp names the same build as the sources", async () => {
  // What the binary reads (build_stamp.json, written by the script before compiling) and
  // what a server run from the sources computes are one digest of the same files.
  const code = REPOSITORY.replace(/[\\/]$/, "");
  const digest = await codeDigest(code);
  const at = await Deno.makeTempDir({ prefix: "fts-stamp-" });
  try {
    await Deno.writeTextFile(`${at}/${BUILD_STAMP}`, JSON.stringify({ digest }));
    assert.equal(await buildOf("9.9.9", at), `9.9.9+${digest}`);
    assert.equal(await buildOf("9.9.9", code), `9.9.9+${digest}`);
  } finally {
    await Deno.remove(at, { recursive: true });
  }
});

Deno.test("compile script: each included module exists and is one the server starts", () => {
  for (const file of WORKER_FILES) Deno.statSync(path.join(REPOSITORY, file));
  assert.equal(WORKER_FILES.length, Object.keys(WORKER_MODULES).length);
});

/** Every `.ts` file below `dir`. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = path.join(dir, e.name);
    if (e.isDirectory) out.push(...sources(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

Deno.test("worker modules: every module the source can start as a worker is on the one list", () => {
  const listed = new Set(Object.values(WORKER_MODULES).map((u) => fileURLToPath(u)));
  const files = [...sources(path.join(REPOSITORY, "src")), path.join(REPOSITORY, "main.ts")];
  let workers = 0;
  for (const file of files) {
    const text = Deno.readTextFileSync(file);
    // Modules reached by URL rather than by import are the ones handed to `new Worker`.
    for (const m of text.matchAll(/new URL\(\s*["'`]([^"'`]+)["'`]\s*,\s*import\.meta\.url/g)) {
      const target = path.resolve(path.dirname(file), m[1]!);
      assert.ok(
        listed.has(target),
        `${path.relative(REPOSITORY, target)} is not in WORKER_MODULES`,
      );
    }
    // A module that acts as a worker when loaded: its code (not its docs) takes the
    // worker's own scope.
    const code = text.split("\n").filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
    if (code.some((line) => /\bself as unknown as\b/.test(line))) {
      workers++;
      assert.ok(listed.has(file), `${path.relative(REPOSITORY, file)} is not in WORKER_MODULES`);
    }
    // Only the sandbox spawns workers (contract §13).
    if (/\bnew Worker\(/.test(text)) {
      assert.equal(path.relative(REPOSITORY, file), path.join("src", "workers", "worker_pool.ts"));
    }
  }
  assert.equal(workers, listed.size);
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
