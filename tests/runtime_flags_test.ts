/**
 * The start task's `--allow-env` list is exactly what the server reads, and the README's
 * client configuration uses the start task's flags.
 */
import assert from "node:assert/strict";
import { ENV_VARIABLES } from "../src/config.ts";
import { ALLOW_ENV, SERVER_FLAGS, V8_FLAGS } from "../src/runtime_flags.ts";

const README = Deno.readTextFileSync(new URL("../README.md", import.meta.url));

Deno.test("deno task start grants reading, exactly the server's variables, and nothing else", () => {
  assert.deepEqual(
    ALLOW_ENV.slice("--allow-env=".length).split(",").sort(),
    [...ENV_VARIABLES].sort(),
  );
  assert.deepEqual(
    SERVER_FLAGS.filter((a) => a.startsWith("--allow-")).sort(),
    ["--allow-read", ALLOW_ENV].sort(),
  );
});

Deno.test("the README's client configuration uses the same flags", () => {
  assert.ok(README.includes(`"${V8_FLAGS}"`));
  assert.ok(README.includes(`"${ALLOW_ENV}"`));
});
