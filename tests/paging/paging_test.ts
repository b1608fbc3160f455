/**
 * Snapshots serve only their own paging sequence (contract §18): a new sequence of the
 * same query never gets pages from an older sequence's snapshot.
 */
import assert from "node:assert/strict";
import { allPages, engine } from "../helpers/engine.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";

Deno.test("a snapshot serves only the paging sequence that made it", async () => {
  const spec: Record<string, { mtime: number }> = {};
  for (let i = 0; i < 9; i++) spec[`f${i}.txt`] = { mtime: T0 + i * DAY };
  await using tree = await makeTree(spec);
  let now = T0 + 100 * DAY;
  const e = engine(tree.root, { clock: { now: () => now } });
  const args = { timeField: "modified", limit: 3 };
  const first = await allPages(e, args); // page 2 of this sequence keeps a snapshot
  assert.deepEqual(first.flatMap((p) => p.matches.map((m) => m.path)).length, 9);
  // A new file among the old ones, then a new sequence of the same query.
  await Deno.writeTextFile(tree.abs("g.txt"), "new");
  await Deno.utime(tree.abs("g.txt"), new Date(T0 + 4.5 * DAY), new Date(T0 + 4.5 * DAY));
  now += 1000;
  const second = await allPages(e, args);
  const paths = second.flatMap((p) => p.matches.map((m) => m.path));
  assert.ok(paths.includes("g.txt"), `a page came from the old sequence: ${paths.join()}`);
  assert.equal(paths.length, 10);
});
