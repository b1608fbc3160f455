/**
 * The live index end to end (contract §18): with `INDEX=on` a root's index is built at
 * start-up, with `lazy` on its first call; fs.list_roots says where it stands, and a
 * change made meanwhile is in the next answer.
 */
import assert from "node:assert/strict";
import { connect, rootIndex } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

Deno.test({
  name: "live index: with INDEX=on every root is ready with no call, then answers stay true",
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 30; i++) spec[`d${i % 3}/f${i}.txt`] = { mtime: T0 + i * 1000 };
    await using tree = await makeTree(spec);
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    // No call made: the index is built in the background, every entry in it.
    await until(async () => (await rootIndex(conn))?.state === "ready", "the index");
    assert.deepEqual(await rootIndex(conn), { state: "ready", entries: 33 });
    const args = { timeField: "modified", limit: 5 };
    const paths = async () =>
      ((await conn.search(args)).structuredContent as { matches: { path: string }[] }).matches
        .map((m) => m.path);
    const before = await paths();
    assert.deepEqual(before, [
      "d2/f29.txt",
      "d1/f28.txt",
      "d0/f27.txt",
      "d2/f26.txt",
      "d1/f25.txt",
    ]);
    // A change: it reaches the index through the watcher.
    await Deno.writeTextFile(tree.abs("d1/new.txt"), "new");
    await until(async () => (await paths())[0] === "d1/new.txt", "the change to be seen");
    await Deno.remove(tree.abs("d1/new.txt"));
    await until(async () => !(await paths()).includes("d1/new.txt"), "the removal to be seen");
    assert.deepEqual(await paths(), before);
  },
});

Deno.test({
  name: "live index: with INDEX=lazy a root's index starts on its first call",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a/b.txt": { mtime: T0 }, "c.txt": { mtime: T0 + 1 } });
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "lazy" });
    assert.deepEqual(await rootIndex(conn), { state: "off", entries: 0, reason: "not used yet" });
    const found = await conn.search({ timeField: "modified" }); // walked; starts the index
    assert.equal((found.structuredContent as { matches: unknown[] }).matches.length, 2);
    await until(async () => (await rootIndex(conn))?.state === "ready", "the index");
    assert.deepEqual(await rootIndex(conn), { state: "ready", entries: 3 });
  },
});
