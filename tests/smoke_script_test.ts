/**
 * The release smoke test (`.github/scripts/smoke.ts`) runs on GitHub's runners against the
 * compiled binary, which cannot be built here. This runs it against a stand-in for the
 * binary (the server from source with the binary's flags): it must pass, and it must fail
 * when the root's live index never answers (as when a worker module is left out).
 */
import assert from "node:assert/strict";
import { standInBinary } from "./helpers/clients.ts";
import { runDeno } from "./helpers/spawn.ts";

const SMOKE = new URL("../.github/scripts/smoke.ts", import.meta.url);

async function smoke(env: Record<string, string>) {
  await using binary = await standInBinary(env);
  const out = await runDeno(["run", "--allow-all", SMOKE.pathname, binary.file], {
    env: { PATH: Deno.env.get("PATH") ?? "" },
  });
  return { code: out.code, out: out.stdout + out.stderr };
}

Deno.test({
  name: "release smoke test: passes once the root's index answers, fails when it never does",
  ignore: Deno.build.os === "windows",
  async fn() {
    const ok = await smoke({});
    assert.equal(ok.code, 0, ok.out);
    assert.match(ok.out, /smoke ok: .*"state":"ready"/);
    const off = await smoke({ INDEX: "off" });
    assert.notEqual(off.code, 0, off.out);
    assert.match(off.out, /the live index never answered/);
  },
});
