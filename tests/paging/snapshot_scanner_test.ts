/**
 * Paging snapshots kept where the scan runs (snapshot_scanner.ts, as an index service
 * keeps them, contract §28a): every page of a sequence is the same as the plain pager's,
 * the scanner below it is asked for the first two pages only, and no outcome it hands out
 * carries the whole result.
 */
import assert from "node:assert/strict";
import { allPages, engine } from "../helpers/engine.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { InlineScanner } from "../helpers/inline_scanner.ts";
import { SnapshotScanner } from "../../src/paging/mod.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs } from "../../src/ports/fs.ts";
import { strictGuard } from "../../src/security/guard.ts";
import type { RunOptions, Scanner } from "../../src/workers/scanner.ts";
import type { SearchRequest } from "../../src/query/mod.ts";

Deno.test("snapshot scanner: pages as the pager's, two scans below it, never the whole result", async () => {
  const spec: TreeSpec = {};
  for (let i = 0; i < 95; i++) spec[`d${i % 7}/f${i}.txt`] = { mtime: T0 + (i % 40) * DAY };
  await using tree = await makeTree(spec);
  const inline = new InlineScanner({ fs: denoFs, clock: systemClock, guard: strictGuard });
  const asked: number[] = [];
  const counting: Scanner = {
    run: (request: SearchRequest, options?: RunOptions) => {
      asked.push(options?.keepAll ?? 0);
      return inline.run(request, options);
    },
    close() {},
  };
  const kept = new SnapshotScanner(counting, systemClock);
  const wholes: number[] = [];
  const watching: Scanner = {
    run: async (request, options) => {
      const outcome = await kept.run(request, options);
      wholes.push(outcome.collected.all?.length ?? 0);
      return outcome;
    },
    close() {},
  };
  for (const sort of ["time_desc", "time_asc"]) {
    asked.length = 0;
    wholes.length = 0;
    const args = { timeField: "modified", limit: 10, sort };
    const plain = await allPages(engine(tree.root), args);
    const served = await allPages(engine(tree.root, { scanner: watching }), args);
    const strip = (pages: typeof plain) =>
      pages.map(({ matches, nextCursor, stats }) => ({
        matches,
        next: nextCursor && JSON.parse(atob(nextCursor.replaceAll("-", "+").replaceAll("_", "/"))),
        total: stats.totalMatches,
      }));
    const withoutChain = (pages: ReturnType<typeof strip>) =>
      pages.map((p) => ({ ...p, next: p.next && { ...p.next, c: 0 } }));
    assert.deepEqual(withoutChain(strip(served)), withoutChain(strip(plain)), sort);
    assert.equal(served.length, 10, "ten pages");
    assert.equal(asked.length, 2, `scans below: ${asked.join(",")}`);
    assert.ok(asked[0] === 0 && asked[1]! > 0, "the second page keeps the whole result");
    assert.ok(wholes.every((n) => n === 0), "no outcome carries the whole result");
  }
});
