/**
 * The live index end to end (contract §18): once a root is watched, answers come from
 * memory, fs.list_roots says so, and a change made meanwhile is in the next answer.
 */
import assert from "node:assert/strict";
import { connect, rootIndex } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

Deno.test({
  name: "live index: watched roots answer from memory and stay true while files change",
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 30; i++) spec[`d${i % 3}/f${i}.txt`] = { mtime: T0 + i * 1000 };
    await using tree = await makeTree(spec);
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    assert.deepEqual(await rootIndex(conn), { state: "off", entries: 0, reason: "not used yet" });
    const args = { timeField: "modified", limit: 5 };
    const paths = async () =>
      ((await conn.search(args)).structuredContent as { matches: { path: string }[] }).matches
        .map((m) => m.path);
    const before = await paths(); // starts the watch
    await until(async () => (await rootIndex(conn))?.state === "watching", "the watch");
    assert.deepEqual(await paths(), before); // this one fills the index
    assert.ok((await rootIndex(conn))!.entries >= 33, JSON.stringify(await rootIndex(conn)));
    // A change: it reaches the index through the watcher.
    await Deno.writeTextFile(tree.abs("d1/new.txt"), "new");
    await until(async () => (await paths())[0] === "d1/new.txt", "the change to be seen");
    await Deno.remove(tree.abs("d1/new.txt"));
    await until(async () => !(await paths()).includes("d1/new.txt"), "the removal to be seen");
    assert.deepEqual(await paths(), before);
  },
});
