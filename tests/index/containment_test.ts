/**
 * Containment on the indexed path (contract §18, §6, §8, §13), end to end through MCP:
 * once the index holds a folder, the folder is exchanged in one step for a link to a
 * folder outside the root (`renameat2(RENAME_EXCHANGE)`: the runtime's watcher drops
 * every event whose path now leads outside, so the index hears nothing). A call below the
 * swapped folder must be refused as a walk refuses it (`SymlinkEscapeDetected`), and no
 * call may list anything outside, whether the outside folder's time equals the one the
 * index remembers (it would be served from memory) or not (it would be read through the
 * link), with the index on and off.
 */
import assert from "node:assert/strict";
import { canExchange, exchange } from "../helpers/exchange.ts";
import { connect, type Connection, rootIndex, textOf } from "../helpers/server.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

function paths(result: Awaited<ReturnType<Connection["search"]>>): string[] {
  assert.ok(!result.isError, textOf(result));
  return (result.structuredContent as { matches: { path: string }[] }).matches.map((m) => m.path);
}

for (const index of ["on", "off"] as const) {
  for (const times of ["equal", "different"] as const) {
    Deno.test({
      name:
        `containment: a folder the index holds, exchanged for a link out (INDEX=${index}, ${times} folder times), is never listed through`,
      ignore: !canExchange,
      ...sanitize,
      async fn() {
        await using tree = await makeTree({
          "top.txt": { mtime: T0 },
          "a": { kind: "dir", mtime: T0 },
          "a/g.txt": { mtime: T0 },
          "a/c": { kind: "dir", mtime: T0 + DAY },
          "a/c/f.txt": { mtime: T0 },
        });
        const cTime = times === "equal" ? T0 + DAY : T0 + 5 * DAY;
        await using outside = await makeTree({
          "target/SECRET-TOP.txt": { mtime: T0 },
          "target/c": { kind: "dir", mtime: cTime },
          "target/c/SECRET.txt": { mtime: T0 },
        }, "fts-outside-");
        await Deno.symlink(outside.abs("target"), outside.abs("link"));
        await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: index });
        const whole = { timeField: "modified", includeDirectories: true, limit: 100 };
        const before = paths(await conn.search(whole)); // starts the watch
        assert.deepEqual(before.sort(), ["a", "a/c", "a/c/f.txt", "a/g.txt", "top.txt"]);
        if (index === "on") {
          await until(async () => (await rootIndex(conn)).state === "ready", "the watch");
          paths(await conn.search(whole)); // fills the index
          paths(await conn.search({ ...whole, path: "a/c" }));
          assert.ok((await rootIndex(conn)).entries >= 5, JSON.stringify(await rootIndex(conn)));
        }
        exchange(tree.abs("a"), outside.abs("link"));
        assert.ok((await Deno.lstat(tree.abs("a"))).isSymlink);

        // Below the swapped folder, before any whole-root call: refused, as a walk refuses it.
        const below = await conn.search({ ...whole, path: "a/c" });
        assert.ok(below.isError, `expected a refusal, got ${textOf(below)}`);
        assert.match(textOf(below), /SymlinkEscapeDetected/);
        assert.doesNotMatch(JSON.stringify(below), /SECRET/);
        const belowFile = await conn.search({ ...whole, path: "a/c/f.txt" });
        assert.match(textOf(belowFile), /SymlinkEscapeDetected/);

        // The whole root: the link is an entry of its own, never followed.
        const after = await conn.search(whole);
        assert.doesNotMatch(JSON.stringify(after), /SECRET/);
        assert.deepEqual(paths(after).sort(), ["a", "top.txt"]);
        for (const sort of ["time_asc", "path_asc"]) {
          const other = await conn.search({ ...whole, sort });
          assert.deepEqual(paths(other).sort(), ["a", "top.txt"], sort);
        }
      },
    });
  }
}
