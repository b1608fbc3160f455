/**
 * A service holds the roots of the session that starts it (contract §28a): one session with
 * three roots starts one service process for all three, each root answered from its
 * index; a later session with one of them and a new root joins that service for the one
 * and starts another for the new root alone; `fs.list_roots` counts each root's sessions.
 * A root whose service ended as it started (another held its lock) is reached again when
 * `fs.list_roots` alone is asked.
 */
import assert from "node:assert/strict";
import { T0, type TreeSpec } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";
import type { Connection, RootIndexInfo } from "../helpers/server.ts";
import { until } from "../helpers/until.ts";
import {
  commandLines,
  servicePathsOf,
  servicePids,
  session,
  type Shared,
  SHARED_SKIP,
  treeWithServices,
} from "../helpers/sessions.ts";
import { holdLock } from "../../src/service/socket_sweep.ts";

const ignore = SHARED_SKIP !== null;
const SPEC: TreeSpec = { "a/one.txt": { mtime: T0 }, "b/two.txt": { mtime: T0 + 1 } };

/** Each root's index, in the order of the session's roots (from `fs.list_roots`). */
async function indexes(conn: Connection): Promise<Shared[]> {
  const result = await conn.client.callTool({ name: "fs.list_roots", arguments: {} });
  return (result.structuredContent as { roots: { index: RootIndexInfo }[] }).roots
    .map((r) => r.index as Shared);
}

/** Waits until every root of the session is ready in its service. */
async function allReady(conn: Connection): Promise<Shared[]> {
  let all: Shared[] = [];
  try {
    await until(async () => {
      all = await indexes(conn);
      return all.every((i) => i.state === "ready" && i.shared?.sessions !== undefined);
    }, "every root's shared index");
  } catch (err) {
    // What each root last said (its state, and why its service does not answer, if so).
    throw new Error(`${(err as Error).message}: ${JSON.stringify(all)}`);
  }
  return all;
}

Deno.test({
  name: "service roots: one session's roots are held by one service; a later session joins it",
  ignore,
  ...sanitize,
  async fn() {
    await using r1 = await treeWithServices(SPEC);
    await using r2 = await treeWithServices(SPEC);
    await using r3 = await treeWithServices(SPEC);
    await using r4 = await treeWithServices(SPEC);
    const roots = [r1.root, r2.root, r3.root].sort();
    await using a = await session(roots);
    await allReady(a);
    const [pid] = servicePids(roots[0]!);
    assert.ok(pid);
    for (const root of roots) assert.deepEqual(servicePids(root), [pid], "one service for all");
    for (const root of roots) {
      const result = await a.search({ root, timeField: "modified" });
      assert.equal(result.isError, false);
    }
    const after = await indexes(a);
    assert.ok(after.every((i) => i.answers?.index === 1 && i.answers.walk === 0));
    const later = [roots[1]!, r4.root].sort();
    await using b = await session(later);
    const theirs = await allReady(b);
    assert.deepEqual(servicePids(roots[1]!), [pid], "joined for the shared root");
    const [other] = servicePids(r4.root);
    assert.ok(other !== undefined && other !== pid, "a service of its own for the new root");
    const shared = theirs[later.indexOf(roots[1]!)]!;
    assert.equal(shared.shared?.sessions, 2);
    assert.equal((await indexes(a))[0]!.shared?.sessions, 1);
  },
});

Deno.test({
  name:
    "service roots: a root whose path holds a comma is shared, its service granted exactly it; no path on a command line",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(SPEC);
    const root = `${tree.root}/proj,v2`;
    Deno.mkdirSync(`${root}/a`, { recursive: true });
    Deno.writeTextFileSync(`${root}/a/one.txt`, "one");
    Deno.mkdirSync(`${tree.root}/proj`); // what a split flag would have granted instead
    await using s = await session(root);
    await allReady(s);
    const [pid] = servicePids(root);
    assert.ok(pid !== undefined, "its service");
    const before = (await indexes(s))[0]!.answers!.index;
    await s.search({ timeField: "modified" });
    assert.equal((await indexes(s))[0]!.answers!.index, before + 1, "answered by the index");
    // Its permissions, as the session granted them (a permission set: JSON lists, never split).
    const { socket, folder } = servicePathsOf(root);
    const [config] = [...Deno.readDirSync("/tmp")]
      .map((e) => `/tmp/${e.name}/service-${socket.slice(folder.length + 1, -5)}.json`)
      .filter((path) => {
        try {
          return Deno.statSync(path).isFile;
        } catch {
          return false;
        }
      });
    assert.ok(config, "the service's permission set");
    const granted = JSON.parse(Deno.readTextFileSync(config)).permissions.default;
    const code = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
    assert.deepEqual(granted.read.slice(0, 3), [root, code, "/tmp"]);
    assert.deepEqual(granted.read.slice(3), ["/proc/sys/fs/inotify/max_queued_events"]);
    assert.deepEqual(granted.write, ["/tmp"]);
    assert.deepEqual(granted.net, [`unix:${socket}`]);
    // No process but the session (whose client named the root) has the root on its command line.
    const named = commandLines().filter(([p, args]) =>
      p !== s.pid && args.join(" ").includes(root)
    );
    assert.deepEqual(named, [], "no root path on a service's command line");
  },
});

Deno.test({
  name:
    "service roots: a root whose service could not start is started again when only fs.list_roots is asked",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(SPEC);
    const { lock, folder } = servicePathsOf(tree.root);
    Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
    // Another holds the root's lock and does not listen: the service started for it ends.
    const held = await holdLock(lock);
    assert.ok(held);
    using _held = { [Symbol.dispose]: () => held.release() };
    await using s = await session(tree.root);
    // Read from its log, not from `fs.list_roots`: asking would start it again meanwhile.
    const failed = /root #1 has no link to its index service: its service did not start \(it ended/;
    await until(() => failed.test(s.stderrTail()), "its service's start to fail, not waited for");
    held.release();
    const [index] = await allReady(s);
    assert.equal(index!.shared?.sessions, 1, "its service, started again without a call");
    assert.equal(servicePids(tree.root).length, 1);
  },
});
