/**
 * The start task's `--allow-env` list is exactly what the server reads, and the README's
 * client configuration uses the start task's flags.
 */
import assert from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import { ENV_VARIABLES } from "../src/config.ts";
import { ALLOW_ENV, ALLOW_WRITE, SERVER_FLAGS, V8_FLAGS } from "../src/runtime_flags.ts";
import { runDeno } from "./helpers/spawn.ts";
import { DEFAULT_HEAP_LIMIT } from "../src/index/answer/index_messages.ts";

const README = Deno.readTextFileSync(new URL("../README.md", import.meta.url));

Deno.test("deno task start grants reading, writing the temp folder, exactly the server's variables, sockets and runs (its index services), and nothing else", () => {
  assert.deepEqual(
    ALLOW_ENV.slice("--allow-env=".length).split(",").sort(),
    [...ENV_VARIABLES].sort(),
  );
  assert.deepEqual(
    SERVER_FLAGS.filter((a) => a.startsWith("--allow-")).sort(),
    ["--allow-read", ALLOW_WRITE, ALLOW_ENV, "--allow-net", "--allow-run"].sort(),
  );
  assert.equal(ALLOW_WRITE, "--allow-write=/tmp");
});

Deno.test("the README's client configuration uses the same flags", () => {
  assert.ok(README.includes(`"${V8_FLAGS}"`));
  assert.ok(README.includes(`"${ALLOW_ENV}"`));
  assert.ok(README.includes(`"${ALLOW_WRITE}"`));
  assert.ok(README.includes(`"--allow-net",\n        "--allow-run"`));
});

Deno.test("deno task start is quiet, and its import map holds only what the server imports", async () => {
  assert.ok(SERVER_FLAGS.includes("--quiet"), "no download lines on a first start");
  // Deno fetches every package of the import map on a first run: test-only packages
  // are imported by full specifier from the tests instead (pinned in tests/deno.lock).
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: new URL("..", import.meta.url),
    stdout: "piped",
    stderr: "null",
  }).output();
  const graph = JSON.parse(new TextDecoder().decode(info.stdout)) as {
    npmPackages: Record<string, unknown>;
  };
  const used = Object.keys(graph.npmPackages).map((id) => id.split("_")[0]);
  for (const [name, target] of Object.entries(denoJson.imports as Record<string, string>)) {
    const pkg = target.replace(/^npm:\/?/, "").replace(/\/$/, "");
    assert.ok(used.includes(pkg), `${name} (${pkg}) is in the import map, not in the server`);
  }
});

Deno.test("deno.lock pins only the server's packages (test-only ones are in tests/deno.lock)", () => {
  const lock = JSON.parse(Deno.readTextFileSync(new URL("../deno.lock", import.meta.url))) as {
    specifiers: Record<string, string>;
  };
  const imported = Object.values(denoJson.imports as Record<string, string>)
    .map((target) => target.replace(/^npm:\/?/, "").replace(/\/$/, ""));
  assert.deepEqual(
    Object.keys(lock.specifiers).map((s) => s.replace(/^npm:/, "")).sort(),
    imported.sort(),
    "run tests with `deno task test` (it uses tests/deno.lock), or remove what they added",
  );
});

Deno.test({
  name: "a first start downloads only the server's packages and prints no download lines",
  ignore: Deno.build.os === "windows",
  async fn() {
    const denoDir = await Deno.makeTempDir({ prefix: "fts-deno-dir-" });
    const root = await Deno.makeTempDir({ prefix: "fts-first-start-" });
    try {
      // An empty cache of its own (the TLS and proxy settings still passed on).
      const out = await runDeno(["task", "-q", "start", "--", root], {
        cwd: new URL("..", import.meta.url),
        // No index service: one would outlive the server, using the cache removed below.
        env: { DENO_DIR: denoDir, NO_COLOR: "1", SHARED_INDEX: "off" },
      });
      assert.equal(out.code, 0);
      const stderr = out.stderr.trim().split("\n");
      for (const line of stderr) assert.match(line, /^\[file-time-search\] /);
      const fetched = [...Deno.readDirSync(`${denoDir}/npm/registry.npmjs.org`)].map((e) => e.name);
      for (const testOnly of ["fast-check", "pure-rand", "smol-toml"]) {
        assert.ok(!fetched.includes(testOnly), `${testOnly} was downloaded`);
      }
    } finally {
      await Deno.remove(denoDir, { recursive: true });
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("an index worker's default heap limit is that of an isolate run with the start task's flags (a service's, which reads no node:v8)", async () => {
  const ran = await runDeno([
    "eval",
    V8_FLAGS,
    'import { getHeapStatistics } from "node:v8"; console.log(getHeapStatistics().heap_size_limit)',
  ]);
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(Number(ran.stdout.trim()), DEFAULT_HEAP_LIMIT);
});
