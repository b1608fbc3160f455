/**
 * Start-up (contract §2): a bad configuration is one stderr line naming the variable,
 * exit status 2, and nothing on stdout.
 */
import assert from "node:assert/strict";
import { SERVER_ARGS } from "./helpers/server.ts";
import { runDeno } from "./helpers/spawn.ts";
import { makeTree } from "./helpers/tree.ts";

/** Starts the server with only `env` of the variables it reads (and Deno's cache). */
async function start(env: Record<string, string>, args = SERVER_ARGS) {
  const out = await runDeno(args, { env: { NO_COLOR: "1", ...env } });
  return { code: out.code, stdout: out.stdout, stderr: out.stderr.trimEnd().split("\n") };
}

Deno.test("main exits 2 with one stderr line for each bad start-up setting", async () => {
  await using tree = await makeTree({ "file.txt": {}, "dir/x.txt": {} });
  const cases: [Record<string, string>, RegExp][] = [
    [{}, /ALLOW_ROOTS is missing or empty/],
    [{ ALLOW_ROOTS: " ; , " }, /ALLOW_ROOTS is missing or empty/],
    [{ ALLOW_ROOTS: tree.abs("nope") }, /ALLOW_ROOTS entry .* does not exist/],
    [{ ALLOW_ROOTS: tree.abs("file.txt") }, /ALLOW_ROOTS entry .* is not a directory/],
    [{ ALLOW_ROOTS: tree.root, DEFAULT_ROOT: tree.abs("dir") }, /DEFAULT_ROOT .* is not one of/],
    [{ ALLOW_ROOTS: tree.root, MAX_DEPTH: "deep" }, /MAX_DEPTH must be a whole number/],
    [{ ALLOW_ROOTS: tree.root, ON_LIMIT: "stop" }, /ON_LIMIT must be 'partial' or 'error'/],
  ];
  for (const [env, message] of cases) {
    const { code, stdout, stderr } = await start(env);
    assert.equal(code, 2, JSON.stringify(env));
    assert.equal(stdout, "");
    assert.equal(stderr.length, 1, stderr.join("\n"));
    assert.match(stderr[0]!, message);
  }
});

Deno.test("main exits 2 when --allow-read does not cover a root", async () => {
  await using tree = await makeTree({ "a/x.txt": {}, "b/y.txt": {} });
  const args = SERVER_ARGS.map((a) => a === "--allow-read" ? `--allow-read=${tree.abs("a")}` : a);
  const { code, stdout, stderr } = await start({ ALLOW_ROOTS: tree.abs("a") }, args);
  assert.equal(code, 2);
  assert.equal(stdout, "");
  assert.match(stderr.join("\n"), /--allow-read must cover/);
});

Deno.test("main names --allow-env when it may not read ALLOW_ROOTS, and warns for the others", async () => {
  await using tree = await makeTree({ "a/x.txt": {} });
  const without = SERVER_ARGS.filter((a) => !a.startsWith("--allow-env"));
  const refused = await start({ ALLOW_ROOTS: tree.root }, without);
  assert.equal(refused.code, 2);
  assert.equal(refused.stderr.length, 1, refused.stderr.join("\n"));
  assert.match(
    refused.stderr[0]!,
    /may not read the ALLOW_ROOTS environment variable: add --allow-env=ALLOW_ROOTS,/,
  );
  assert.doesNotMatch(refused.stderr[0]!, /missing or empty/);
  const partial = SERVER_ARGS.map((a) =>
    a.startsWith("--allow-env") ? "--allow-env=ALLOW_ROOTS" : a
  );
  const warned = await start({ ALLOW_ROOTS: tree.root }, partial);
  assert.equal(warned.code, 0);
  assert.match(
    warned.stderr[0]!,
    /--allow-env does not cover DEFAULT_ROOT, .*SHARED_INDEX_IDLE, so they are ignored: use --allow-env=/,
  );
});

Deno.test("main names --allow-read when it does not cover a root", async () => {
  await using tree = await makeTree({ "a/x.txt": {}, "b/y.txt": {} });
  const worker = new URL("../src", import.meta.url).pathname;
  const args = SERVER_ARGS.map((a) =>
    a === "--allow-read" ? `--allow-read=${worker},${tree.abs("a")}` : a
  );
  const { code, stderr } = await start({ ALLOW_ROOTS: tree.abs("b") }, args);
  assert.equal(code, 2);
  assert.equal(stderr.length, 1, stderr.join("\n"));
  assert.match(stderr[0]!, /ALLOW_ROOTS entry '.*b' is not covered by --allow-read/);
});

Deno.test("main exits 0 when its input ends", async () => {
  await using tree = await makeTree({ "a.txt": {} });
  const { code, stdout } = await start({ ALLOW_ROOTS: tree.root });
  assert.equal(code, 0);
  assert.equal(stdout, "");
});
