/**
 * The live index end to end (contract §18): with `INDEX=on` a root's index is built at
 * start-up, with `lazy` on its first call; fs.list_roots says where it stands and who
 * answered each call, and a change made just before a call is in its answer, from the
 * index (the barrier: no waiting for the watch to catch up).
 */
import assert from "node:assert/strict";
import { NO_INDEX } from "../helpers/live_index.ts";
import {
  connect,
  NOT_SHARED,
  rootIndex,
  type RootIndexInfo,
  SHARING,
  sharingAside,
} from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

/** A root's index without when it was last checked whole (that depends on timing). */
/** Its state, without when it was last checked and what it costs (a ready index has costs). */
function withoutCheck(
  info: RootIndexInfo,
): Omit<
  RootIndexInfo,
  "checkedWhole" | "checkEnded" | "watches" | "memoryBytes" | "journal"
> {
  const { checkedWhole: _, checkEnded: _e, watches, memoryBytes, journal: __, ...rest } = info;
  if (rest.state === "ready") {
    assert.ok(watches! > 0 && memoryBytes! > 0, `${watches}, ${memoryBytes}`);
  }
  return rest;
}

Deno.test({
  name: "live index: with INDEX=on every root is ready with no call, then answers stay true",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 30; i++) spec[`d${i % 3}/f${i}.txt`] = { mtime: T0 + i * 1000 };
    await using tree = await makeTree(spec);
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    // No call made: the index is built in the background, every entry in it.
    await until(async () => (await rootIndex(conn))?.state === "ready", "the index");
    assert.deepEqual(withoutCheck(sharingAside(await rootIndex(conn))), {
      state: "ready",
      entries: 33,
      answers: { index: 0, walk: 0 },
      shared: NOT_SHARED,
    });
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
    // A change made just before a call is in its answer: the barrier waits for its event.
    await Deno.writeTextFile(tree.abs("d1/new.txt"), "new");
    assert.equal((await paths())[0], "d1/new.txt");
    await Deno.remove(tree.abs("d1/new.txt"));
    assert.deepEqual(await paths(), before);
    // Every one of those calls was answered by the index.
    assert.deepEqual((await rootIndex(conn)).answers, { index: 3, walk: 0 });
  },
});

Deno.test({
  name: "live index: with INDEX=lazy a root's index starts on its first call",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a/b.txt": { mtime: T0 }, "c.txt": { mtime: T0 + 1 } });
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "lazy" });
    assert.deepEqual(withoutCheck(sharingAside(await rootIndex(conn))), {
      state: "off",
      entries: 0,
      reason: "not used yet",
      answers: { index: 0, walk: 0 },
      shared: NOT_SHARED,
    });
    const found = await conn.search({ timeField: "modified" }); // walked; starts the index
    assert.equal((found.structuredContent as { matches: unknown[] }).matches.length, 2);
    await until(async () => (await rootIndex(conn))?.state === "ready", "the index");
    const { lastWalk, ...ready } = withoutCheck(sharingAside(await rootIndex(conn)));
    assert.deepEqual(ready, {
      state: "ready",
      entries: 3,
      answers: { index: 0, walk: 1 },
      shared: NOT_SHARED,
    });
    // Shared (TEST_SHARED_INDEX=1): the first call waits for the service it starts, which
    // walks it as its own index starts (or, on a loaded machine, as it builds; or the call is
    // walked here if the service is not up within the wait).
    if (SHARING) {
      assert.match(
        lastWalk ?? "",
        /^(its watch is starting|its index is being built|its shared index: )/,
      );
    } else assert.equal(lastWalk, "its watch is starting");
    await conn.search({ timeField: "modified" });
    assert.deepEqual((await rootIndex(conn)).answers, { index: 1, walk: 1 });
  },
});
