/**
 * The background check of folder times goes round the held folders a step at a time
 * (contract §18): a step stops at its count or its time, the next one goes on where it
 * stopped, and a round looks at every record once.
 */
import assert from "node:assert/strict";
import { FolderSweep } from "../../src/index/cache/folder_sweep.ts";

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

Deno.test("folder sweep: with entries, a step goes on inside a folder, and says when a round was whole", () => {
  const clock = { ms: 0 };
  let wall = 1000;
  const checked: string[] = [];
  // Three records, each held with 3 entries; each entry check takes 1 ms.
  const held = {
    records: 3,
    recheck: () => true,
    recheckEntries(folder: number, from: number, until: () => boolean) {
      for (let k = from; k < 3; k++) {
        if (until()) return k;
        clock.ms += 1;
        checked.push(`${folder}.${k}`);
      }
      return -1;
    },
  };
  const sweep = new FolderSweep({ now: () => clock.ms, wallNow: () => wall });
  assert.equal(sweep.wholeSince, null);
  sweep.step(held, { ms: 2, entries: true }); // stops inside folder 0
  assert.deepEqual(checked, ["0.0", "0.1"]);
  wall = 2000;
  sweep.step(held, { ms: 4, entries: true }); // goes on there, then folder 1
  assert.deepEqual(checked, ["0.0", "0.1", "0.2", "1.0", "1.1", "1.2"]);
  assert.equal(sweep.wholeSince, null, "no round is whole yet");
  sweep.step(held, { ms: 3, entries: true }); // folder 2: the round is whole
  assert.equal(sweep.wholeSince, 1000, "it began at the first step");
  // Without entries (the steps before answers), no entry is looked at.
  const before = checked.length;
  new FolderSweep().step(held, { folders: 3 });
  assert.equal(checked.length, before);
});
