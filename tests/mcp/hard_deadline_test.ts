/**
 * A call always answers (contract §19), end to end: a scan worker whose file system
 * blocks forever inside a listing or a stat (a test worker, tests/helpers/seam_worker.ts)
 * is stopped at SCAN_TIMEOUT_MS + 1 s, and the call is answered from the last boundary the
 * worker reported, or with TimeoutExceeded when it reported none.
 */
import assert from "node:assert/strict";
import { connect, textOf } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

const SCAN_TIMEOUT_MS = 500;

interface Output {
  matches: { path: string }[];
  nextCursor: string | null;
  stats: { truncated: boolean; elapsedMs: number };
}
const out = (r: { structuredContent?: unknown }) => r.structuredContent as Output;

function tree() {
  const spec: Record<string, { mtime: number }> = {};
  for (let i = 0; i < 5; i++) {
    spec[`a/f${i}.txt`] = { mtime: T0 + i };
    spec[`m/f${i}.txt`] = { mtime: T0 + 10 + i };
    spec[`z/f${i}.txt`] = { mtime: T0 + 20 + i };
  }
  return makeTree(spec);
}

for (const stallIn of ["readDir", "lstat"] as const) {
  Deno.test({
    name: `a scan stuck in a ${stallIn} answers with a partial page that pages on exactly`,
    ...sanitize,
    async fn() {
      await using t = await tree();
      const env = { ALLOW_ROOTS: t.root, SCAN_TIMEOUT_MS: String(SCAN_TIMEOUT_MS) };
      await using stuck = await connect(env, {
        stallOn: t.abs("z"),
        stallIn,
        progressEveryEntry: true,
      });
      for (const sort of ["time_desc", "path_asc"]) {
        const args = { timeField: "modified", sort };
        const pending = stuck.search(args);
        await stuck.client.ping(); // answered while the scan hangs
        const first = await pending;
        assert.equal(first.isError, false, textOf(first));
        // By the server's own clock: the deadline (SCAN_TIMEOUT_MS + 1 s from the worker's
        // start), and a second more for the worker to load on a busy machine. Without the
        // deadline the call would not be answered at all (the stall lasts ten minutes).
        const { elapsedMs } = out(first).stats;
        assert.ok(elapsedMs < SCAN_TIMEOUT_MS + 2000, `answered after ${elapsedMs} ms`);
        assert.equal(out(first).stats.truncated, true);
        assert.match(textOf(first), /The scan hung inside the file system/);
        const before = out(first).matches.map((m) => m.path);
        assert.ok(before.every((p) => !p.startsWith("z/")), before.join());
        assert.ok(before.length >= 5, `covered a/ at least: ${before.join()}`);
        assert.notEqual(out(first).nextCursor, null);
        // The next call on this root says the last scan there hung.
        const next = await stuck.search({ timeField: "modified", path: "a" });
        assert.equal(next.isError, false);
        assert.match(textOf(next), /An earlier scan of this root hung/);
        // Once the file system answers again, the cursor pages on to exactly the rest.
        await using healthy = await connect(env);
        const seen = [...before];
        let cursor = out(first).nextCursor;
        while (cursor !== null) {
          const page = await healthy.search({ ...args, cursor });
          seen.push(...out(page).matches.map((m) => m.path));
          cursor = out(page).nextCursor;
        }
        const whole = await healthy.search(args);
        assert.deepEqual(seen.sort(), out(whole).matches.map((m) => m.path).sort(), sort);
      }
      // The pool is back to full strength: four scans at once all answer.
      const all = await Promise.all(
        [0, 1, 2, 3].map(() => stuck.search({ timeField: "modified", path: "m" })),
      );
      for (const r of all) assert.equal(out(r).matches.length, 5);
    },
  });
}

Deno.test({
  name: "a scan stuck before it reported anything is TimeoutExceeded, and the server goes on",
  ...sanitize,
  async fn() {
    await using t = await tree();
    await using conn = await connect(
      { ALLOW_ROOTS: t.root, SCAN_TIMEOUT_MS: String(SCAN_TIMEOUT_MS) },
      { stallOn: t.abs("z"), stallIn: "readDir" },
    );
    // An error carries no elapsed time: a bound that no slow machine reaches, far below
    // the ten minutes the stall would last without the deadline.
    const started = performance.now();
    const result = await conn.search({ timeField: "modified", path: "z" });
    assert.ok(performance.now() - started < SCAN_TIMEOUT_MS + 20_000);
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^ErrorCode: TimeoutExceeded\nMessage: The scan hung inside/);
    const fine = await conn.search({ timeField: "modified", path: "a" });
    assert.equal(out(fine).matches.length, 5);
  },
});
