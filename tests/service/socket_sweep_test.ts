/**
 * A service's lock (src/service/socket_sweep.ts, contract §28a): a sweep of what dead services
 * left, run by another service or session at the same moment, never takes a new service's
 * lock from it. Before, a lock file was made and then locked: a sweep that opened it in
 * between held it for that moment, and the service left its root as another's (seen once as a
 * session's new root never served, in `.ci/run`).
 */
import assert from "node:assert/strict";
import { holdLock } from "../../src/service/socket_sweep.ts";

/** Index services are not started on Windows (no unix sockets there: share_indexes.ts). */
const ignore = Deno.build.os === "windows";
if (ignore) console.log("socket sweep tests skipped: no index services on Windows");

Deno.test({
  name: "socket sweep: a new service's lock is never taken from it by a sweep at that moment",
  ignore,
}, async () => {
  const folder = Deno.makeTempDirSync();
  const worker = new Worker(new URL("../helpers/sweep_worker.ts", import.meta.url), {
    type: "module",
  });
  try {
    worker.postMessage(folder);
    let lost = 0;
    for (let n = 0; n < 3000; n++) {
      const lock = await holdLock(`${folder}/root-${n}.lock`);
      if (lock === null) lost++;
      else lock.release();
    }
    const sweeps = await new Promise<number>((resolve) => {
      worker.onmessage = (event: MessageEvent<number>) => resolve(event.data);
      worker.postMessage(null);
    });
    assert.ok(sweeps > 0, "the folder was swept meanwhile");
    assert.equal(lost, 0, "every lock was held by the one that took it");
    assert.deepEqual([...Deno.readDirSync(folder)], [], "each released lock removed");
  } finally {
    worker.terminate();
    Deno.removeSync(folder, { recursive: true });
  }
});

Deno.test({
  name: "socket sweep: a lock another holds is not taken, and a dead one's is",
  ignore,
}, async () => {
  const folder = Deno.makeTempDirSync();
  try {
    const held = await holdLock(`${folder}/a.lock`);
    assert.ok(held);
    assert.equal(await holdLock(`${folder}/a.lock`), null, "held by another");
    const dead = Deno.openSync(`${folder}/b.lock`, { write: true, createNew: true });
    dead.close(); // a lock file left by a service that died: nobody holds it
    const taken = await holdLock(`${folder}/b.lock`);
    assert.ok(taken?.held(), "a dead one's is taken");
    held.release();
    taken!.release();
    assert.deepEqual([...Deno.readDirSync(folder)], []);
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
});
