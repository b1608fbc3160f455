/**
 * The server's one write (contract §13): its private folder for the index's barrier. Made
 * outside every root and removed when the server stops; a server that may not write it
 * says so once at start-up and in `fs.list_roots`, and walks every call (never stale).
 */
import assert from "node:assert/strict";
import { makePrivateFolder, removePrivateFolder } from "../../src/index/watch/private_folder.ts";
import { ALLOW_WRITE } from "../../src/runtime_flags.ts";
import { engine } from "../helpers/engine.ts";
import { NO_INDEX } from "../helpers/live_index.ts";
import { connect, rootIndex, SERVER_ARGS } from "../helpers/server.ts";
import { runDeno } from "../helpers/spawn.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

Deno.test("private folder: made outside every root, mode 0700, removed", () => {
  const folder = makePrivateFolder([]);
  assert.ok(folder.path !== null);
  assert.equal(Deno.statSync(folder.path).isDirectory, true);
  if (Deno.build.os !== "windows") assert.equal(Deno.statSync(folder.path).mode! & 0o777, 0o700);
  removePrivateFolder(folder.path);
  assert.throws(() => Deno.statSync(folder.path!), Deno.errors.NotFound);
  // A temp folder inside a root is refused: nothing is ever written under a root.
  const inside = makePrivateFolder([Deno.realPathSync("/"), Deno.realPathSync(Deno.cwd())]);
  assert.deepEqual(inside, { path: null, why: "the temp folder lies inside a root" });
});

Deno.test({
  name: "private folder: without --allow-write the server says so once, and every call walks",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 }, "d/b.txt": { mtime: T0 } });
    const args = SERVER_ARGS.filter((a) => a !== ALLOW_WRITE);
    const started = await runDeno(args, { env: { ALLOW_ROOTS: tree.root }, input: "" });
    assert.equal(started.code, 0, started.stderr);
    const lines = started.stderr.split("\n").filter((l) => l.includes("no root is indexed"));
    assert.equal(lines.length, 1, started.stderr);
    assert.match(lines[0]!, /private folder for its barrier .*--allow-write=\/tmp/);
    assert.ok(!started.stderr.includes(tree.root), "no root's path in the log");

    await using conn = await connect({ ALLOW_ROOTS: tree.root }, undefined, [], undefined, [
      ALLOW_WRITE,
    ]);
    const info = await rootIndex(conn);
    assert.equal(info.state, "off");
    assert.match(info.reason!, /--allow-write=\/tmp/);
    await Deno.writeTextFile(tree.abs("d/new.txt"), "new");
    const args2 = { timeField: "modified", limit: 10 };
    const got = (await conn.search(args2)).structuredContent as { matches: unknown[] };
    assert.deepEqual(got.matches, (await engine(tree.root).search(args2)).matches);
    const after = await rootIndex(conn);
    assert.deepEqual(after.answers, { index: 0, walk: 1 });
    assert.match(after.lastWalk!, /--allow-write=\/tmp/);
  },
});

Deno.test({
  name: "private folder: one left by a killed process is removed by the next made, a live one kept",
  ...sanitize,
  async fn() {
    const module = new URL("../../src/index/watch/private_folder.ts", import.meta.url).href;
    // Each child makes its folder, says where, and waits to be killed.
    const script = `const { makePrivateFolder } = await import(${JSON.stringify(module)});
      console.log(makePrivateFolder([]).path); setInterval(() => {}, 60_000);`;
    const child = () => {
      const process = new Deno.Command(Deno.execPath(), {
        args: ["eval", script],
        stdin: "null",
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      const lines = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
      return { process, path: lines.read().then(({ value }) => value!.trim()) };
    };
    // Both made while both are alive: neither removes the other's.
    const killed = child();
    const killedPath = await killed.path;
    const live = child();
    const livePath = await live.path;
    assert.ok(Deno.statSync(killedPath).isDirectory, "the folder of the one to be killed");
    killed.process.kill("SIGKILL"); // it removes nothing
    await killed.process.status;
    try {
      // Not looked at between the kill and the next folder made: any server starting
      // meanwhile removes it, another test's too under `--parallel`.
      const made = makePrivateFolder([]);
      assert.ok(made.path !== null);
      removePrivateFolder(made.path);
      assert.throws(() => Deno.statSync(killedPath), Deno.errors.NotFound);
      assert.ok(Deno.statSync(livePath).isDirectory, "a live process's folder is kept");
    } finally {
      live.process.kill("SIGKILL");
      await live.process.status;
      removePrivateFolder(livePath);
      removePrivateFolder(killedPath);
    }
  },
});
