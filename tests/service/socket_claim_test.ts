/**
 * A service keeps its claim on its root's socket (contract §28a, src/service/socket_claim.ts):
 * a temp cleaner removes the whole socket folder (sockets and locks) while a service runs
 * and a session is at it, and a second session starts at once: within 10 s there is one
 * service of the root again, both sessions are answered by its index, and the root is
 * watched by one process only. The sessions run as a user of their own (tests/helpers/
 * nobody.ts), so the socket folder removed is no other test's.
 */
import assert from "node:assert/strict";
import { T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { until } from "../helpers/until.ts";
import { rootIndex } from "../helpers/server.ts";
import { watchedInodes } from "../helpers/inotify.ts";
import { NOBODY_SKIP, stageForNobody } from "../helpers/nobody.ts";
import {
  alive,
  answeredBy,
  readyShared,
  servicePids,
  session,
  type Shared,
  SHARED_SKIP,
  treeWithServices,
} from "../helpers/sessions.ts";
import { SocketClaim } from "../../src/service/socket_claim.ts";

const ignore = SHARED_SKIP !== null || NOBODY_SKIP !== null;
/** A user no other test runs as: its socket folder is this test's alone. */
const USER = 65001;

Deno.test({
  name: "socket claim: the socket folder removed under a service leaves one service of the root",
  ignore,
  ...sanitize,
  async fn() {
    await using staged = await stageForNobody(USER);
    const folder = `/tmp/file-time-search-${USER}`;
    // Disposed after the tree (whose services end first): the test's user's socket folder.
    await using _folder = {
      [Symbol.asyncDispose]: () => Promise.resolve(Deno.removeSync(folder, { recursive: true })),
    };
    await using tree = await treeWithServices({
      "a/one.txt": { mtime: T0 },
      "b/two.txt": { mtime: T0 + 1 },
    });
    Deno.chmodSync(tree.root, 0o755);
    const root = tree.root;
    const env = { SHARED_INDEX_IDLE: "60" };
    try {
      Deno.removeSync(folder, { recursive: true }); // left by an earlier run
    } catch { /* none */ }
    await using a = await session(root, env, staged);
    await readyShared(a);
    const [first] = servicePids(root);
    assert.ok(first !== undefined, "its service");
    assert.ok(Deno.lstatSync(folder).isDirectory, "the socket folder of the test's user");
    const removedAt = Date.now();
    Deno.removeSync(folder, { recursive: true });
    await using b = await session(root, env, staged);
    await until(async () => {
      // Each session's calls reach the one service (a link that dropped is made again at a call).
      for (const s of [a, b]) {
        assert.equal((await s.search({ timeField: "modified" })).isError, false);
      }
      const pids = servicePids(root);
      // The first one listening again, or ended (its process gone) for the second.
      if (pids.length !== 1 || (pids[0] !== first && alive(first))) return false;
      return (await rootIndex(b) as Shared).shared?.sessions === 2;
    }, "one service of the root, with both sessions");
    const ms = Date.now() - removedAt;
    assert.ok(ms < 10_000, `one service again within 10 s: ${ms} ms`);
    for (const s of [a, b]) {
      await readyShared(s);
      const before = (await answeredBy(s)).index;
      assert.equal((await s.search({ timeField: "modified" })).isError, false);
      assert.equal(
        (await answeredBy(s)).index,
        before + 1,
        `answered by the index: ${JSON.stringify(await rootIndex(s))}`,
      );
    }
    const ino = Deno.statSync(root).ino!;
    // The root watched once, by its one service. (A service a session started while the folder
    // was gone finds the root's lock taken and ends: it may still be listed for a moment.)
    let watching: number[] = [];
    await until(() => {
      const pids = servicePids(root);
      watching = [...new Set([a.pid!, b.pid!, ...pids, first])].filter((pid) => {
        try {
          return watchedInodes(pid).has(ino);
        } catch {
          return false; // ended
        }
      });
      return pids.length === 1 && watching.length === 1 && watching[0] === pids[0];
    }, "the root watched once, by its one service");
    assert.equal(watching.length, 1);
  },
});

Deno.test({
  name: "socket claim: a claim whose socket another took closes nothing of the other's; it retakes",
  ignore: Deno.build.os === "windows",
  async fn() {
    const folder = await Deno.makeTempDir({ prefix: "fts-claim-" });
    Deno.chmodSync(folder, 0o700);
    const uid = Deno.lstatSync(folder).uid!;
    const name = "test-0123456789abcdef";
    const socket = `${folder}/${name}.sock`;
    try {
      const claim = (await SocketClaim.take(folder, uid, name))!;
      assert.ok(claim && !claim.lost());
      // A cleaner removes the socket and lock; another service's socket file is there now.
      Deno.removeSync(socket);
      Deno.removeSync(`${folder}/${name}.lock`);
      Deno.writeTextFileSync(socket, "another's");
      assert.ok(claim.lost());
      claim.release();
      assert.equal(Deno.readTextFileSync(socket), "another's", "not unlinked by the close");
      // Removed again: a new claim listens there, and a connection reaches it.
      Deno.removeSync(socket);
      const again = (await SocketClaim.take(folder, uid, name))!;
      Deno.removeSync(folder, { recursive: true });
      assert.ok(again.lost());
      assert.ok(await again.retake(), "the folder made again, the lock and socket taken again");
      const accepted = again.accept();
      const conn = await Deno.connect({ transport: "unix", path: socket });
      (await accepted)!.close();
      conn.close();
      again.release();
      assert.throws(() => Deno.lstatSync(socket), Deno.errors.NotFound);
      assert.equal(await again.accept(), null, "released: no more connections");
    } finally {
      Deno.removeSync(folder, { recursive: true });
    }
  },
});
