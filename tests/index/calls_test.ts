/**
 * The eager index start waits for a quiet moment (a call at start-up runs first), but a
 * steady stream of calls does not hold it back for longer than its latest start.
 */
import assert from "node:assert/strict";
import { Calls } from "../../src/index/call_gate.ts";
import { until } from "../helpers/until.ts";

const TIMES = { quietMs: 250, soonMs: 2000, latestMs: 30_000 };

/** A clock the test sets, which counts how often it is read (each look reads it once). */
function testClock() {
  const clock = { t: 0, reads: 0, now: () => (clock.reads++, clock.t) };
  /** Waits until the clock has been read `n` more times: `n` more looks. */
  const looks = (n: number) => {
    const target = clock.reads + n;
    return until(() => clock.reads >= target, `${n} looks`);
  };
  return { clock, looks };
}

Deno.test("calls: the eager start waits until no call has run for the quiet time", async () => {
  const { clock, looks } = testClock();
  const calls = new Calls();
  let started = false;
  calls.begin(); // a call made as the server starts
  calls.whenQuiet(TIMES, clock.now, () => (started = true));
  clock.t = 1000;
  await looks(2);
  assert.equal(started, false, "a call is running");
  calls.end(clock.t);
  clock.t = 1100;
  await looks(2);
  assert.equal(started, false, "the call ended only 100 ms ago");
  clock.t = 1300;
  await until(() => started, "the start");
  calls.close();
});

Deno.test("calls: after 2 s a steady stream of calls lets the start in at its first gap", async () => {
  const { clock, looks } = testClock();
  const calls = new Calls();
  let started = false;
  calls.whenQuiet(TIMES, clock.now, () => (started = true));
  calls.begin();
  clock.t = 2500;
  await looks(2);
  assert.equal(started, false, "past 2 s, but a call is running");
  calls.end(clock.t);
  calls.begin(); // the next call of the stream, a moment later
  await looks(2);
  assert.equal(started, false);
  calls.end(clock.t);
  await until(() => started, "the start in the first gap after 2 s");
  calls.close();
});

Deno.test("calls: calls that never stop hold the start back only until its latest", async () => {
  const { clock, looks } = testClock();
  const calls = new Calls();
  let started = false;
  calls.whenQuiet(TIMES, clock.now, () => (started = true));
  calls.begin();
  clock.t = 29_000;
  await looks(2);
  assert.equal(started, false);
  clock.t = 30_000;
  await until(() => started, "the start at its latest");
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
