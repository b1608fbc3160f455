/**
 * src/workers/worker_protocol.ts: a background scan gives way to running calls, but a
 * steady stream of calls never stops it (contract §18: the index gets ready while it is
 * used): with the count of running calls held above 0 for good, a fill still ends, having
 * waited between its runs. A scan nobody asked for (`stopWhile`) stops at its next entry
 * once a call runs.
 */
import assert from "node:assert/strict";
import { fillRequest } from "../../src/index/fill/fill_request.ts";
import { denoFs, type FsPort, systemClock } from "../../src/ports/mod.ts";
import { strictGuard } from "../../src/security/mod.ts";
import { WHOLE } from "../../src/walk/mod.ts";
import { answerScan, GIVE_WAY_MS, type ScanTask } from "../../src/workers/worker_protocol.ts";
import { makeTree, T0, type TreeSpec } from "../helpers/tree.ts";

/** 300 files in 10 folders. */
const SPEC: TreeSpec = {};
for (let i = 0; i < 300; i++) SPEC[`d${i % 10}/f${i}.txt`] = { mtime: T0 };

/** A fill of `root` answered in this thread with `fs` and `extra`: how it ended. */
async function fill(
  root: string,
  fs: FsPort,
  extra: Partial<ScanTask>,
): Promise<string | undefined> {
  const task: ScanTask = {
    id: 1,
    request: fillRequest({ path: root, realPath: root }, 10_000),
    plan: { share: WHOLE, keepAll: 0 },
    ...extra,
  };
  const said: { type: string }[] = [];
  const scope = { postMessage: (m: unknown) => said.push(m as { type: string }) };
  await answerScan(scope, { fs, clock: systemClock, guard: strictGuard }, task);
  return said.at(-1)?.type;
}

Deno.test("worker protocol: calls that never end slow a background scan, never stop it", async () => {
  await using tree = await makeTree(SPEC);
  const calls = new Int32Array(new SharedArrayBuffer(4));
  Atomics.store(calls, 0, 1); // a call is running, and never ends
  const started = performance.now();
  assert.equal(await fill(tree.root, denoFs, { giveWay: calls }), "done", "the scan ended");
  assert.ok(performance.now() - started >= GIVE_WAY_MS, "it gave way at least once");
});

Deno.test("worker protocol: a scan nobody asked for stops at its next entry once a call runs", async () => {
  await using tree = await makeTree(SPEC);
  const run = async (callAfter: number) => {
    const calls = new Int32Array(new SharedArrayBuffer(4));
    let stats = 0;
    // A call begins after `callAfter` entries were read (none: never).
    const fs: FsPort = Object.create(denoFs, {
      lstat: {
        value: (path: string) => {
          if (++stats === callAfter) Atomics.store(calls, 0, 1);
          return denoFs.lstat(path);
        },
      },
    });
    return { ended: await fill(tree.root, fs, { stopWhile: calls }), stats };
  };
  assert.deepEqual((await run(0)).ended, "done", "no call: it ends");
  const stopped = await run(50);
  assert.equal(stopped.ended, "cancelled", "a call came: it stopped");
  assert.ok(stopped.stats <= 51, `it read ${stopped.stats} entries, not the 310`);
});
