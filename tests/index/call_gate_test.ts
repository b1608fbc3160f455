/**
 * src/index/call_gate.ts: the eager index start waits for a quiet moment (a call at
 * start-up runs first), but a steady stream of calls does not hold it back for longer than
 * its latest start. A test clock and test timers: each `look()` is one look of the gate.
 */
import assert from "node:assert/strict";
import { Calls, type Timers } from "../../src/index/call_gate.ts";

const TIMES = { quietMs: 250, soonMs: 2000, latestMs: 30_000 };

/** A clock the test sets, and timers the test fires: `look()` runs the look now due. */
function testGate() {
  const clock = { t: 0, now: () => clock.t };
  let due: (() => void)[] = [];
  const timers: Timers = {
    set: (look) => due.push(look),
    clear: () => void (due = []),
  };
  const look = () => {
    const now = due;
    due = [];
    for (const f of now) f();
  };
  return { clock, calls: new Calls(timers), look };
}

Deno.test("calls: the eager start waits until no call has run for the quiet time", () => {
  const { clock, calls, look } = testGate();
  let started = false;
  calls.begin(); // a call made as the server starts
  calls.whenQuiet(TIMES, clock.now, () => (started = true));
  clock.t = 1000;
  look();
  assert.equal(started, false, "a call is running");
  calls.end(clock.t);
  clock.t = 1100;
  look();
  assert.equal(started, false, "the call ended only 100 ms ago");
  clock.t = 1300;
  look();
  assert.equal(started, true);
  calls.close();
});

Deno.test("calls: after 2 s a steady stream of calls lets the start in at its first gap, at once", () => {
  const { clock, calls, look } = testGate();
  let started = false;
  calls.whenQuiet(TIMES, clock.now, () => (started = true));
  calls.begin();
  clock.t = 1900;
  calls.end(clock.t); // a gap before 2 s: not yet
  calls.begin();
  assert.equal(started, false);
  clock.t = 2500;
  look();
  assert.equal(started, false, "past 2 s, but a call is running");
  calls.end(clock.t); // back-to-back calls: the next one comes before any look
  assert.equal(started, true, "started in the gap itself, not at a later look");
  calls.begin();
  look(); // nothing left to look for
  calls.close();
});

Deno.test("calls: calls that never stop hold the start back only until its latest", () => {
  const { clock, calls, look } = testGate();
  let started = false;
  calls.whenQuiet(TIMES, clock.now, () => (started = true));
  calls.begin();
  clock.t = 29_000;
  look();
  assert.equal(started, false);
  clock.t = 30_000;
  look();
  assert.equal(started, true, "the start at its latest");
  calls.end(clock.t);
  calls.close();
});

Deno.test("calls: a fill waits while calls run (the count it shares)", () => {
  const calls = new Calls();
  calls.begin();
  calls.begin();
  assert.equal(Atomics.load(calls.running, 0), 2);
  calls.end(0);
  calls.end(0);
  assert.equal(Atomics.load(calls.running, 0), 0);
});
