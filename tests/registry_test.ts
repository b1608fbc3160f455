/**
 * The MCP Registry entry (contract §25): `server.json` is valid against the registry's
 * published schema (docs/registry/server.schema.json, with where it came from), names
 * `io.github.<owner>/file-time-search`, says what it does in at most 100 characters, has
 * `deno.json`'s version, one `mcpb` package per release asset with its SHA-256 (zeros until
 * the release workflow fills them in), stdio, and the folders as repeated positional
 * arguments; it is what .github/scripts/registry.ts makes, which the release runs.
 */
import assert from "node:assert/strict";
import { Ajv } from "npm:ajv@8.20.0";
import addFormats from "npm:ajv-formats@3.0.1";
import deno from "../deno.json" with { type: "json" };
import manifest from "../manifest.json" with { type: "json" };
import { TARGETS } from "../.github/scripts/compile.ts";
import {
  bundleName,
  NO_HASH,
  PLACEHOLDER_REPOSITORY,
  serverJson,
} from "../.github/scripts/registry.ts";

const read = (file: string): Record<string, unknown> =>
  JSON.parse(Deno.readTextFileSync(new URL(`../${file}`, import.meta.url)));

function validator() {
  // The schema is OpenAPI's output: `example` and `discriminator` are not JSON Schema words.
  const ajv = new Ajv({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv.compile(read("docs/registry/server.schema.json"));
}

type Entry = {
  name: string;
  description: string;
  version: string;
  packages: {
    registryType: string;
    identifier: string;
    version: string;
    fileSha256: string;
    transport: { type: string };
    packageArguments: { type: string; value?: string; isRepeated?: boolean }[];
  }[];
};

Deno.test("registry: server.json is valid against the registry's schema", () => {
  const validate = validator();
  const entry = read("server.json");
  assert.ok(validate(entry), JSON.stringify(validate.errors, null, 2));
  // And the schema does say no: a description over 100 characters, a package with no hash.
  assert.equal(validate({ ...entry, description: "x".repeat(101) }), false);
  const noHash = structuredClone(entry) as unknown as Entry;
  delete (noHash.packages[0] as Partial<Entry["packages"][0]>).fileSha256;
  assert.equal(validate(noHash), false);
});

Deno.test("registry: server.json has deno.json's version, one bundle per release asset", () => {
  const entry = read("server.json") as unknown as Entry;
  assert.equal(entry.version, deno.version);
  assert.equal(manifest.version, deno.version, "the bundle's manifest too");
  assert.match(entry.name, /^io\.github\.[A-Za-z0-9-]+\/file-time-search$/);
  assert.ok(entry.description.length <= 100);
  assert.deepEqual(
    entry.packages.map((p) => p.identifier.split("/").at(-1)),
    TARGETS.map(bundleName),
  );
  for (const p of entry.packages) {
    assert.equal(p.registryType, "mcpb");
    assert.equal(p.version, deno.version);
    assert.match(p.identifier, new RegExp(`/releases/download/v${deno.version}/`));
    assert.equal(p.fileSha256, NO_HASH, "filled in by the release workflow");
    assert.deepEqual(p.transport, { type: "stdio" });
    const [serve, folders] = p.packageArguments;
    assert.equal(serve?.value, "serve");
    assert.equal(folders?.type, "positional");
    assert.equal(folders?.isRepeated, true);
  }
  // The committed entry is what the release's script makes, but for the owner and hashes.
  assert.deepEqual(entry, serverJson(PLACEHOLDER_REPOSITORY, () => NO_HASH));
});

Deno.test("registry: the release's entry names its owner and each bundle's SHA-256", async () => {
  const dist = await Deno.makeTempDir({ prefix: "fts-dist-" });
  try {
    for (const target of TARGETS) {
      await Deno.writeTextFile(`${dist}/${bundleName(target)}`, target);
    }
    const script = new URL("../.github/scripts/registry.ts", import.meta.url).pathname;
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--allow-read",
        `--allow-write=${dist}`,
        script,
        "someone/fts",
        dist,
      ],
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const entry = JSON.parse(await Deno.readTextFile(`${dist}/server.json`)) as Entry;
    assert.equal(entry.name, "io.github.someone/file-time-search");
    const sha = async (text: string) =>
      [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))]
        .map((b) => b.toString(16).padStart(2, "0")).join("");
    for (const [i, target] of TARGETS.entries()) {
      assert.equal(entry.packages[i]!.fileSha256, await sha(target));
      assert.match(entry.packages[i]!.identifier, /^https:\/\/github\.com\/someone\/fts\//);
    }
    assert.ok(validator()(entry));
  } finally {
    await Deno.remove(dist, { recursive: true });
  }
});
