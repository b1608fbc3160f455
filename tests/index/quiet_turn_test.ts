/**
 * Work done ahead of the next question in a quiet moment (src/index/cache/quiet_turn.ts):
 * once no change has come for `QUIET_MS`, or changes kept coming for `QUIET_AT_MOST_MS`,
 * and never while a call runs; one turn for a run of changes.
 */
import assert from "node:assert/strict";
import {
  CALL_WAIT_MS,
  QUIET_AT_MOST_MS,
  QUIET_MS,
  QuietTurn,
} from "../../src/index/cache/quiet_turn.ts";

/** A fake clock and timer queue: `advance` runs what falls due, in time order. */
function fakeTime() {
  let now = 0;
  const due: { at: number; task: () => void }[] = [];
  return {
    now: () => now,
    later: (task: () => void, ms: number) => void due.push({ at: now + ms, task }),
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        due.sort((a, b) => a.at - b.at);
        if (due.length === 0 || due[0]!.at > until) break;
        const { at, task } = due.shift()!;
        now = at;
        task();
      }
      now = until;
    },
    get waiting() {
      return due.length;
    },
  };
}

Deno.test("quiet turn: runs once a run of changes is quiet, not while a call runs", () => {
  const time = fakeTime();
  let runs = 0;
  let busy = false;
  const turn = new QuietTurn(() => runs++, () => busy, time);
  turn.poke();
  time.advance(QUIET_MS / 2);
  turn.poke(); // the run goes on: the quiet is counted from here
  time.advance(QUIET_MS - 1);
  assert.equal(runs, 0);
  busy = true;
  time.advance(1 + 5 * CALL_WAIT_MS);
  assert.equal(runs, 0, "a call runs");
  busy = false;
  time.advance(CALL_WAIT_MS);
  assert.equal(runs, 1, "one turn for the run");
  assert.equal(time.waiting, 0, "nothing waits after it");
  time.advance(10 * QUIET_MS);
  assert.equal(runs, 1);
  turn.poke(); // a later change: a turn of its own
  time.advance(QUIET_MS);
  assert.equal(runs, 2);
});

Deno.test("quiet turn: a steady stream of changes puts it off at most QUIET_AT_MOST_MS", () => {
  const time = fakeTime();
  let runs = 0;
  const turn = new QuietTurn(() => runs++, () => false, time);
  let elapsed = 0;
  while (runs === 0) {
    turn.poke();
    time.advance(QUIET_MS / 4);
    elapsed += QUIET_MS / 4;
    assert.ok(elapsed <= QUIET_AT_MOST_MS + QUIET_MS, "it ran within its bound");
  }
  assert.ok(elapsed >= QUIET_AT_MOST_MS);
});
