/**
 * The flags in deno.json's start task, the README's client configuration and
 * src/runtime_flags.ts agree.
 */
import assert from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import { ALLOW_ENV, V8_FLAGS } from "../src/runtime_flags.ts";

const README = Deno.readTextFileSync(new URL("../README.md", import.meta.url));

Deno.test("deno task start runs with the server's V8 and env flags", () => {
  const start = denoJson.tasks.start.split(" ");
  assert.ok(start.includes(V8_FLAGS), denoJson.tasks.start);
  assert.ok(start.includes(ALLOW_ENV), denoJson.tasks.start);
  assert.ok(start.includes("--allow-read"));
  assert.deepEqual(
    start.filter((a) => a.startsWith("--allow-")).sort(),
    ["--allow-read", ALLOW_ENV].sort(),
  );
});

Deno.test("the README's client configuration uses the same flags", () => {
  assert.ok(README.includes(`"${V8_FLAGS}"`));
  assert.ok(README.includes(`"${ALLOW_ENV}"`));
});
