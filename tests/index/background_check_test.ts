/**
 * The background check's pace (issue 39, idle means idle): its steps use no more than
 * their share of one core, measured by the time they take, however big the tree; they
 * never stop while the tree is quiet; and each round's end is said.
 */
import assert from "node:assert/strict";
import { BackgroundCheck, CHECK_STEP_MS } from "../../src/index/cache/background_check.ts";

/** `records` held folders of `entries` entries each; each check costs `cost` ms on the clock. */
function tree(clock: { ms: number }, records: number, entries: number, cost: number) {
  let checks = 0;
  return {
    get checks() {
      return checks;
    },
    records,
    recheck() {
      clock.ms += cost;
      checks++;
      return true;
    },
    recheckEntries(_folder: number, from: number, until: () => boolean) {
      for (let k = from; k < entries; k++) {
        if (until()) return k;
        clock.ms += cost;
        checks++;
      }
      return -1;
    },
  };
}

/** Runs the check on a fake clock for `ms` and returns its steps' time and its rounds. */
function run(records: number, entries: number, share: number, ms: number) {
  const clock = { ms: 0 };
  const held = tree(clock, records, entries, 0.01);
  const queue: { at: number; run: () => void }[] = [];
  const rounds: number[] = [];
  let busy = 0;
  new BackgroundCheck(held, {
    share,
    now: () => clock.ms,
    wallNow: () => clock.ms,
    later: (step, wait) => queue.push({ at: clock.ms + wait, run: step }),
    onRound: (_since, ended) => rounds.push(ended),
  });
  while (queue.length > 0 && clock.ms < ms) {
    const next = queue.shift()!;
    clock.ms = Math.max(clock.ms, next.at);
    const before = clock.ms;
    next.run();
    busy += clock.ms - before;
  }
  return { busy, elapsed: clock.ms, rounds, checks: held.checks };
}

Deno.test("background check: steps use at most their share of one core, on any tree", () => {
  for (const [records, entries] of [[10, 5], [5_000, 100], [200_000, 10]] as const) {
    for (const share of [0.005, 0.005 / 4]) {
      const { busy, elapsed } = run(records, entries, share, 3_600_000);
      assert.ok(
        busy / elapsed <= share * 1.01,
        `${records}x${entries} at ${share}: ${busy}/${elapsed}`,
      );
      assert.ok(busy / elapsed >= share * 0.5, "and it goes on while the tree is quiet");
    }
  }
});

Deno.test("background check: a round ends within its cost over the share, and is said", () => {
  // 5,000 folders of 100 entries at 0.01 ms a check: a round costs 5,050 ms of one core;
  // the round of entries has three quarters of each step (the rest goes round the folders
  // alone), so at 0.5% a round takes about 1,347 s: two in an hour.
  const { rounds } = run(5_000, 100, 0.005, 3_600_000);
  assert.equal(rounds.length, 2, JSON.stringify(rounds));
  assert.ok(rounds[0]! < 1_400_000, `first round ended at ${rounds[0]}`);
  // A tiny tree: each step is a whole round, and steps are spaced by the share.
  const tiny = run(10, 5, 0.005, 60_000);
  assert.ok(tiny.rounds.length > 100, `${tiny.rounds.length} rounds`);
  assert.ok(tiny.checks < 60_000 * 0.005 / 0.01 * 1.01, `${tiny.checks} checks in a minute`);
});

Deno.test("background check: no step runs longer than its bound", () => {
  const clock = { ms: 0 };
  const held = tree(clock, 1_000, 1_000, 0.01);
  let longest = 0;
  const queue: (() => void)[] = [];
  new BackgroundCheck(held, {
    share: 0.005,
    now: () => clock.ms,
    wallNow: () => clock.ms,
    later: (step) => queue.push(step),
  });
  for (let i = 0; i < 50; i++) {
    const before = clock.ms;
    queue.shift()!();
    longest = Math.max(longest, clock.ms - before);
  }
  assert.ok(longest <= CHECK_STEP_MS + 0.02, `a step took ${longest} ms`);
});
