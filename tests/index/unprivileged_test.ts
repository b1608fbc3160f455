/**
 * The live index as an unprivileged user sees the tree (contract §18, "What no event
 * reports": a change of permissions as the server's user sees them). Root reads every folder
 * whatever its mode, so these run the server as `nobody` (nobody.ts) and compare it with a
 * walk by the same user: a folder made unreadable is no longer listed from memory, and a
 * folder made unreadable before the runtime could watch it, then opened, is watched once it
 * can be read.
 */
import assert from "node:assert/strict";
import { V8_FLAGS } from "../../src/runtime_flags.ts";
import type { SearchOutput } from "../../src/search/search_by_time.ts";
import { NO_INDEX } from "../helpers/live_index.ts";
import { NOBODY_SKIP, type Staged, stageForNobody } from "../helpers/nobody.ts";
import { connect, type Connection, rootIndex } from "../helpers/server.ts";
import { DAY, makeTree, T0, touch } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

const ALL = { timeField: "modified", limit: 500, includeDirectories: true };

/** The indexed server and a walking one, both as nobody. */
async function pair(root: string, staged: Staged) {
  const as = (env: Record<string, string>) =>
    connect({ ALLOW_ROOTS: root, ...env }, undefined, [], V8_FLAGS, [], staged);
  const indexed = await as({});
  const walking = await as({ INDEX: "off" });
  const matches = async (conn: Connection, args: Record<string, unknown>) =>
    ((await conn.search(args)).structuredContent as unknown as SearchOutput).matches;
  const ready = () =>
    until(async () => (await rootIndex(indexed)).state === "ready", "the index, as nobody");
  await ready();
  return {
    ready,
    /** Asks both; asserts the same matches; says who answered the indexed server. */
    same: async (args: Record<string, unknown>) => {
      const before = (await rootIndex(indexed)).answers!;
      assert.deepEqual(await matches(indexed, args), await matches(walking, args));
      const after = await rootIndex(indexed);
      return after.answers!.index > before.index ? "index" : after.lastWalk ?? "a walk";
    },
    [Symbol.asyncDispose]: async () => {
      await indexed.close();
      await walking.close();
    },
  };
}

Deno.test({
  name: "as nobody: a folder made unreadable is not listed from memory, and again once readable",
  ignore: NOBODY_SKIP !== null || NO_INDEX,
  ...sanitize,
  async fn() {
    await using staged = await stageForNobody();
    await using tree = await makeTree({
      "c.txt": { mtime: T0 },
      "d/a.txt": { mtime: T0 },
      "d/e/b.txt": { mtime: T0 },
    });
    Deno.chmodSync(tree.root, 0o755);
    await using s = await pair(tree.root, staged);
    assert.equal(await s.same(ALL), "index");
    Deno.chmodSync(tree.abs("d"), 0o311); // nobody may pass through, not list
    await s.same(ALL);
    Deno.chmodSync(tree.abs("d"), 0o755);
    await s.same(ALL);
    touch(tree.abs("d/a.txt"), T0 + DAY);
    await s.same(ALL);
  },
});

Deno.test({
  name: "as nobody: a folder no one could watch, opened later, is watched from then on",
  ignore: NOBODY_SKIP !== null || NO_INDEX,
  ...sanitize,
  async fn() {
    await using staged = await stageForNobody();
    await using tree = await makeTree({ "c.txt": { mtime: T0 } });
    Deno.chmodSync(tree.root, 0o755);
    await using s = await pair(tree.root, staged);
    Deno.mkdirSync(tree.abs("x"), { mode: 0o000 }); // the runtime cannot watch it
    await s.same(ALL);
    Deno.chmodSync(tree.abs("x"), 0o755);
    Deno.writeTextFileSync(tree.abs("x/f.txt"), "f");
    await s.same(ALL);
    await s.ready();
    touch(tree.abs("x/f.txt"), T0 + DAY); // an event only a watch on x reports
    await s.same(ALL);
    await s.ready();
    touch(tree.abs("x/f.txt"), T0 + 2 * DAY);
    assert.equal(await s.same(ALL), "index");
  },
});

Deno.test({
  name:
    "as nobody: a folder's mode changed (000, 311, 444 and back): its entries are stat'ed again, never carried",
  ignore: NOBODY_SKIP !== null || NO_INDEX,
  ...sanitize,
  async fn() {
    await using staged = await stageForNobody();
    await using tree = await makeTree({
      "c.txt": { mtime: T0 },
      "d/a.txt": { mtime: T0, content: "aaa" },
      "d/e/b.txt": { mtime: T0 },
    });
    Deno.chmodSync(tree.root, 0o755);
    await using s = await pair(tree.root, staged);
    assert.equal(await s.same(ALL), "index");
    // r--: its names can be listed, its entries not stat'ed by nobody: a walk skips them,
    // and so must the index (it held their stats from before).
    for (const mode of [0o444, 0o755, 0o311, 0o755, 0o000, 0o755, 0o444, 0o755]) {
      Deno.chmodSync(tree.abs("d"), mode);
      await s.same(ALL);
      await s.same({ ...ALL, sort: "path_asc" });
    }
    touch(tree.abs("d/a.txt"), T0 + DAY);
    await s.ready();
    assert.equal(await s.same(ALL), "index");
  },
});

Deno.test({
  name:
    "as nobody: a subfolder made while its folder was closed to the server, the folder opened with no call between, is watched",
  ignore: NOBODY_SKIP !== null || NO_INDEX,
  ...sanitize,
  async fn() {
    await using staged = await stageForNobody();
    await using tree = await makeTree({ "c.txt": { mtime: T0 } });
    Deno.chmodSync(tree.root, 0o755);
    await using s = await pair(tree.root, staged);
    // Made closed to nobody; its owner makes a subfolder and a file in it; then opens it.
    // Between, only a call that lists nothing (its barrier: every event so far was read),
    // so the index never tried to list the closed folder.
    Deno.mkdirSync(tree.abs("x"), { mode: 0o000 });
    Deno.chmodSync(tree.abs("x"), 0o000);
    await s.same({ ...ALL, path: "c.txt" });
    Deno.mkdirSync(tree.abs("x/sub"), { mode: 0o755 });
    Deno.writeTextFileSync(tree.abs("x/sub/f.txt"), "f");
    Deno.chmodSync(tree.abs("x"), 0o755);
    await s.same(ALL);
    await s.ready();
    // An edit in place: only a watch on x/sub reports it.
    Deno.writeTextFileSync(tree.abs("x/sub/f.txt"), "longer now");
    touch(tree.abs("x/sub/f.txt"), T0 + DAY);
    await s.same(ALL);
    await s.ready();
    Deno.writeTextFileSync(tree.abs("x/sub/f.txt"), "and again, longer still");
    touch(tree.abs("x/sub/f.txt"), T0 + 2 * DAY);
    assert.equal(await s.same(ALL), "index");
  },
});

Deno.test({
  name:
    "as nobody: a watched folder closed (000), a subfolder made in it, then opened: the subfolder is watched",
  ignore: NOBODY_SKIP !== null || NO_INDEX,
  ...sanitize,
  async fn() {
    await using staged = await stageForNobody();
    await using tree = await makeTree({ "c.txt": { mtime: T0 }, "q/old.txt": { mtime: T0 } });
    Deno.chmodSync(tree.root, 0o755);
    await using s = await pair(tree.root, staged);
    assert.equal(await s.same(ALL), "index");
    // The red team's sequence (issue 57): q was watched; closed, filled by its owner, opened.
    Deno.chmodSync(tree.abs("q"), 0o000);
    Deno.mkdirSync(tree.abs("q/made-locked"));
    Deno.writeTextFileSync(tree.abs("q/made-locked/c.txt"), "c");
    // A call that lists nothing of q: its barrier has the watcher read the mkdir's event
    // (and fail to watch the new folder: q is closed) before q is opened.
    await s.same({ ...ALL, path: "c.txt" });
    Deno.chmodSync(tree.abs("q"), 0o755);
    await s.same(ALL); // lists made-locked (by the index or a walk)
    await s.ready();
    // An edit in place, its time set to 2021: only a watch on made-locked reports it.
    Deno.writeTextFileSync(tree.abs("q/made-locked/c.txt"), "a longer content now");
    Deno.utimeSync(tree.abs("q/made-locked/c.txt"), new Date("2021-03-04"), new Date("2021-03-04"));
    await s.same(ALL);
    await s.ready();
    assert.equal(await s.same(ALL), "index");
  },
});
