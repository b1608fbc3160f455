/**
 * The background check of folder times goes round the held folders a step at a time
 * (contract §18): a step stops at its count or its time, the next one goes on where it
 * stopped, and a round looks at every record once.
 */
import assert from "node:assert/strict";
import { FolderSweep } from "../../src/index/folder_sweep.ts";

/** Ten records, the odd ones held; each check takes 1 ms on the fake clock. */
function index(clock: { ms: number }, seen: number[]) {
  return {
    records: 10,
    recheck(folder: number) {
      if (folder % 2 === 0) return false;
      clock.ms += 1;
      seen.push(folder);
      return true;
    },
  };
}

Deno.test("folder sweep: steps stop at their count or time and go on where they stopped", () => {
  const clock = { ms: 0 };
  const seen: number[] = [];
  const sweep = new FolderSweep({ now: () => clock.ms });
  const held = index(clock, seen);
  assert.equal(sweep.step(held, { folders: 2 }), 2);
  assert.deepEqual(seen, [1, 3]);
  assert.equal(sweep.step(held, { ms: 2 }), 2); // 2 ms: two checks of 1 ms
  assert.deepEqual(seen, [1, 3, 5, 7]);
  // A step with room for more than a round looks at each record once, going round.
  assert.equal(sweep.step(held, {}), 5);
  assert.deepEqual(seen, [1, 3, 5, 7, 9, 1, 3, 5, 7]);
});
