/**
 * The release smoke test (`.github/scripts/smoke.ts`) runs on GitHub's runners against the
 * compiled binary, which cannot be built here. This runs it against the server from source
 * behind a small launcher, as the binary would be run: it must pass, and it must fail when
 * the root's live index never answers (as when a worker module is left out of the binary).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { SERVER_ARGS } from "./helpers/server.ts";

const SMOKE = new URL("../.github/scripts/smoke.ts", import.meta.url);

async function smoke(extraEnv: string): Promise<{ code: number; out: string }> {
  const dir = await Deno.makeTempDir({ prefix: "fts-smoke-test-" });
  try {
    const launcher = path.join(dir, "file-time-search");
    const args = SERVER_ARGS.map((a) => `'${a}'`).join(" ");
    // The launcher runs with the environment the smoke test gives it: pass the cache on.
    const cache = Deno.env.get("DENO_DIR");
    if (cache) extraEnv = `DENO_DIR='${cache}' ${extraEnv}`;
    await Deno.writeTextFile(
      launcher,
      `#!/bin/sh\n${extraEnv} exec '${Deno.execPath()}' ${args} "$@"\n`,
    );
    await Deno.chmod(launcher, 0o755);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", SMOKE.pathname, launcher],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { code: out.code, out: text };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "release smoke test: passes once the root's index answers, fails when it never does",
  ignore: Deno.build.os === "windows",
  async fn() {
    const ok = await smoke("");
    assert.equal(ok.code, 0, ok.out);
    assert.match(ok.out, /smoke ok: .*"state":"watching"/);
    const off = await smoke("INDEX=off");
    assert.notEqual(off.code, 0, off.out);
  },
});
