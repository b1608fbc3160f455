/**
 * One index per root for every session (contract §28), through the SDK client over stdio
 * with the real server and the services it starts: a second session is answered by the
 * first one's service at once; a clock of one session is exact in another, also once the
 * first has ended; a service killed in the middle of a call costs that call a walk, and
 * the next call finds a new service; a socket file left by a dead service is taken over;
 * two sessions started at the same instant share one service, their first calls answered by
 * it (none walked in its session while it was being reached); a session killed in the
 * middle of a call leaves the service and the other sessions going; a service ends its
 * idle time after its last session, its private folder and socket removed, and at once when
 * its root is gone while no session is connected.
 */
import assert from "node:assert/strict";
import { allChangesOf, clockOf } from "../helpers/changes.ts";
import { T0, type TreeSpec } from "../helpers/tree.ts";
import { assertSameChanges, snapshot } from "../helpers/snapshot.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { rootIndex } from "../helpers/server.ts";
import { until } from "../helpers/until.ts";
import {
  alive,
  answeredBy,
  endsLeavingNothing,
  lastSessionEnded,
  readyShared,
  servicePids,
  session,
  type Shared,
  SHARED_SKIP,
  treeWithServices,
} from "../helpers/sessions.ts";

const ignore = SHARED_SKIP !== null;
const WINDOW = { timeField: "modified", limit: 100 };

function spec(folders = 4, files = 5): TreeSpec {
  const out: TreeSpec = {};
  for (let d = 0; d < folders; d++) {
    for (let f = 0; f < files; f++) out[`d${d}/f${f}.txt`] = { mtime: T0 + d * 100 + f };
  }
  return out;
}

Deno.test({
  name: "shared index: a second session is answered by the first one's service at once",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec());
    await using a = await session(tree.root);
    await readyShared(a);
    const [pid] = servicePids(tree.root);
    assert.ok(pid, "a service runs");
    await using b = await session(tree.root);
    // Its very first call, before anything else: from the index.
    const first = await b.search(WINDOW);
    assert.equal(first.isError, false);
    assert.deepEqual(await answeredBy(b), { index: 1, walk: 0 });
    const shared = await rootIndex(b) as Shared;
    assert.equal(shared.shared?.sessions, 2);
    assert.deepEqual(servicePids(tree.root), [pid], "one service for both");
  },
});

Deno.test({
  name:
    "shared index: a clock from one session is exact in another, renames and removals included, also after the first ended",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec());
    const a = await session(tree.root, { SHARED_INDEX_IDLE: "60" });
    await readyShared(a);
    await a.search(WINDOW); // from the index: the clock names the service's journal
    const clock = await clockOf(a);
    assert.doesNotMatch(clock, /\.-\.-\./, "a clock with a journal position");
    const before = snapshot(tree.root);
    await Deno.remove(tree.abs("d0/f0.txt"));
    await Deno.rename(tree.abs("d1/f1.txt"), tree.abs("d2/moved.txt"));
    await Deno.rename(tree.abs("d3"), tree.abs("d3-renamed"));
    await Deno.writeTextFile(tree.abs("d2/new.txt"), "new");
    const after = snapshot(tree.root);
    await a.close();
    await using b = await session(tree.root, { SHARED_INDEX_IDLE: "60" });
    const changes = await allChangesOf(b, {
      since: clock,
      includeDirectories: true,
      expand: true,
    });
    assert.equal(changes.freshInstance, false, changes.reason);
    assertSameChanges(changes.changes, before, after, "changes since A's clock, asked in B");
    assert.ok(changes.changes.some((c) => c.change === "renamed"), "renames are kept");
  },
});

Deno.test({
  name:
    "shared index: a service killed during a call costs that call a walk; the next call finds a new one",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec(40, 50));
    await using a = await session(tree.root);
    await readyShared(a);
    const [pid] = servicePids(tree.root);
    // Calls one after another while the service is killed under one of them.
    const calls = Array.from({ length: 20 }, () => a.search(WINDOW));
    Deno.kill(pid!, "SIGKILL");
    for (const result of await Promise.all(calls)) assert.equal(result.isError, false);
    await until(() => !alive(pid!), "the service to end");
    // A later call starts a new service, and calls are answered by its index again.
    await until(async () => {
      await a.search(WINDOW);
      const index = await rootIndex(a) as Shared;
      return servicePids(tree.root).length === 1 && index.lastWalk !== undefined &&
        (await a.search(WINDOW)).isError === false &&
        (await rootIndex(a)).answers!.index > index.answers!.index;
    }, "a new service").catch(async (err) => {
      const shared = JSON.stringify(await rootIndex(a));
      throw new Error(`${err.message}: ${servicePids(tree.root).length} services; ${shared}`);
    });
    const [again] = servicePids(tree.root);
    assert.notEqual(again, pid);
  },
});

Deno.test({
  name: "shared index: a socket file left by a service that died is taken over",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec());
    {
      await using a = await session(tree.root, { SHARED_INDEX_IDLE: "60" });
      await readyShared(a);
      const [pid] = servicePids(tree.root);
      Deno.kill(pid!, "SIGKILL"); // its socket file stays
      await until(() => !alive(pid!), "the service to end");
    }
    await using b = await session(tree.root);
    const index = await readyShared(b);
    assert.equal(index.shared?.sessions, 1);
    assert.equal(servicePids(tree.root).length, 1);
  },
});

Deno.test({
  name: "shared index: sessions started at the same instant share one service",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec());
    const sessions = await Promise.all([1, 2, 3].map(() => session(tree.root)));
    try {
      for (const s of sessions) await readyShared(s);
      assert.equal(servicePids(tree.root).length, 1);
      assert.equal(((await rootIndex(sessions[0]!)) as Shared).shared?.sessions, 3);
    } finally {
      for (const s of sessions) await s.close();
    }
  },
});

Deno.test({
  name:
    "shared index: sessions started together are answered by the service one starts, none walking in its session",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec(30, 100));
    const sessions = await Promise.all([1, 2, 3].map(() => session(tree.root)));
    try {
      // Each first call at once, while the service one of them starts is not up yet: each
      // waits for it, which answers from its index or walks where its build runs (contract
      // §28a: several sessions asking at once cost one walk, not one each).
      const firsts = await Promise.all(sessions.map((s) => s.search(WINDOW)));
      for (const [n, first] of firsts.entries()) {
        assert.equal(first.isError, false);
        const notes = (first.structuredContent as { notes?: { code: string; message: string }[] })
          .notes ?? [];
        const building = notes.find((note) => note.code === "IndexBuilding")?.message ?? "";
        assert.doesNotMatch(building, /being reached/, `session ${n + 1}: ${building}`);
      }
      assert.equal(servicePids(tree.root).length, 1);
    } finally {
      for (const s of sessions) await s.close();
    }
  },
});

Deno.test({
  name: "shared index: a session killed during a call leaves the service and the others going",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec(40, 50));
    await using a = await session(tree.root);
    await readyShared(a);
    const b = await session(tree.root);
    const [pid] = servicePids(tree.root);
    const pending = Array.from({ length: 10 }, () => b.search(WINDOW).catch(() => null));
    Deno.kill(b.pid!, "SIGKILL");
    await Promise.all(pending);
    await b.close().catch(() => {});
    await until(async () => ((await rootIndex(a)) as Shared).shared?.sessions === 1, "B gone");
    const before = (await answeredBy(a)).index;
    assert.equal((await a.search(WINDOW)).isError, false);
    assert.equal((await answeredBy(a)).index, before + 1, "A is answered by the index");
    assert.deepEqual(servicePids(tree.root), [pid]);
  },
});

Deno.test({
  name: "shared index: a service ends its idle time after its last session, leaving nothing",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec());
    const service = await lastSessionEnded(tree.root, "2s");
    // Still there just after its last session, then gone with what it made.
    assert.ok(alive(service.pid), "it outlives its last session by its idle time");
    await endsLeavingNothing(service);
  },
});

Deno.test({
  name: "shared index: a service with no session ends as soon as its root is gone",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec());
    const service = await lastSessionEnded(tree.root, "15m");
    assert.ok(alive(service.pid), "with its root there, it waits for a session for its idle time");
    await Deno.remove(tree.root, { recursive: true }); // a test's temp folder, after its server
    await endsLeavingNothing(service);
  },
});
