/**
 * The background check of folder times goes round the held folders a step at a time
 * (contract §18): a step stops at its count or its time, the next one goes on where it
 * stopped, and a round looks at every record once; the step with an answer comes before it
 * on a small tree and after it, when no call runs, on a bigger one.
 */
import assert from "node:assert/strict";
import {
  ANSWER_SWEEP_FOLDERS,
  FolderSweep,
  OWED_CHUNK,
} from "../../src/index/cache/folder_sweep.ts";

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
  // Without entries (the steps with answers), no entry is looked at.
  const before = checked.length;
  new FolderSweep().step(held, { folders: 3 });
  assert.equal(checked.length, before);
});

/** `records` records, all held; counts the checks. */
function allHeld(records: number) {
  const held = { records, checks: 0, recheck: () => (held.checks++, true) };
  return held;
}

Deno.test("folder sweep: with an answer, a whole round before it on a small tree", () => {
  const tasks: (() => void)[] = [];
  const sweep = new FolderSweep({ later: (task) => tasks.push(task) });
  const held = allHeld(ANSWER_SWEEP_FOLDERS);
  sweep.withAnswer(held, () => false);
  assert.equal(held.checks, ANSWER_SWEEP_FOLDERS, "every folder before the answer");
  assert.equal(tasks.length, 0);
  assert.equal(sweep.owed, 0);
});

Deno.test("folder sweep: with an answer on a bigger tree, owed and checked once no call runs", () => {
  const tasks: { task: () => void; ms: number }[] = [];
  const sweep = new FolderSweep({ later: (task, ms) => tasks.push({ task, ms }) });
  const held = allHeld(2_500);
  let busy = true;
  const run = () => tasks.shift()!.task();
  sweep.withAnswer(held, () => busy);
  assert.equal(held.checks, 0, "the answer does not wait for the step");
  assert.equal(sweep.owed, ANSWER_SWEEP_FOLDERS);
  run(); // a call runs (the answer's own, until the server has it): nothing checked
  assert.equal(held.checks, 0);
  assert.ok(tasks[0]!.ms > 0, "looked at again later");
  busy = false;
  run();
  assert.equal(held.checks, OWED_CHUNK, "a chunk a task");
  // A second answer meanwhile adds to what is owed (at most a round), on the same turns.
  sweep.withAnswer(held, () => busy);
  assert.equal(tasks.length, 1);
  assert.equal(sweep.owed, 2 * ANSWER_SWEEP_FOLDERS - OWED_CHUNK);
  while (tasks.length) run();
  assert.equal(held.checks, 2 * ANSWER_SWEEP_FOLDERS);
  assert.equal(sweep.owed, 0);
  for (let k = 0; k < 5; k++) sweep.withAnswer(held, () => busy);
  assert.equal(sweep.owed, held.records, "never more than a round");
});
