/**
 * The barrier's cookies and the count of what may have been lost (src/index/watch/cookies.ts),
 * apart from the runtime: which events are cookies, which barriers they pass, and when a
 * loss is flagged (a run of events as long as the kernel's queue, counted with what the
 * runtime's own opens add; a cookie skipped over).
 */
import assert from "node:assert/strict";
import { Cookies, EVENTS_PER_READ, FENCE_EVERY } from "../../src/index/watch/cookies.ts";

const DIR = "/tmp/private/1";
const LIMIT = 16_384;
const change = ["/root/a.txt"];

Deno.test("cookies: a barrier passes when its cookie is back, with every earlier barrier", () => {
  const cookies = new Cookies(DIR, LIMIT, "/");
  const first = cookies.cookie(7);
  const second = cookies.cookie(8);
  assert.equal(first, `${DIR}/1`);
  assert.deepEqual(cookies.read(change), {
    passed: [],
    cookie: false,
    back: null,
    overflowed: false,
  });
  assert.equal(cookies.waiting, 2);
  // The second cookie back before the first: the first was dropped, events were lost.
  const read = cookies.read([second]);
  assert.deepEqual(read.passed, [7, 8]);
  assert.equal(read.cookie, true);
  assert.equal(read.back, second);
  assert.equal(read.overflowed, true);
  // Its later events (its removal) are cookies, but pass nothing.
  assert.deepEqual(cookies.read([second]), {
    passed: [],
    cookie: true,
    back: null,
    overflowed: false,
  });
  assert.equal(cookies.waiting, 0);
});

Deno.test("cookies: a run of events as long as the kernel's queue is a loss, said once", () => {
  const cookies = new Cookies(DIR, LIMIT, "/", Infinity); // no fences
  const run = LIMIT / EVENTS_PER_READ;
  for (let i = 1; i < run; i++) assert.equal(cookies.read(change).overflowed, false, `event ${i}`);
  assert.equal(cookies.read(change).overflowed, true);
  assert.equal(cookies.read(change).overflowed, false);
});

Deno.test("cookies: fences read back keep a burst read as it comes from counting as a loss", () => {
  const cookies = new Cookies(DIR, LIMIT, "/");
  for (let i = 0; i < 10 * LIMIT; i++) {
    const read = cookies.read(change);
    assert.equal(read.overflowed, false, `event ${i}`);
    // The fence comes back after 100 more events: the queue was never deep.
    if (cookies.fenceDue) {
      const fence = cookies.cookie(null);
      for (let k = 0; k < 100; k++) assert.equal(cookies.read(change).overflowed, false);
      assert.equal(cookies.read([fence]).overflowed, false);
    }
  }
  assert.ok(FENCE_EVERY < LIMIT / EVENTS_PER_READ);
});

Deno.test("cookies: a fence that comes back late shows how deep the queue was", () => {
  const cookies = new Cookies(DIR, LIMIT, "/");
  for (let i = 0; i < FENCE_EVERY; i++) cookies.read(change);
  assert.ok(cookies.fenceDue);
  const fence = cookies.cookie(null);
  // A queue deep enough that the fence comes back only after a kernel queue's worth.
  let flagged = false;
  for (let i = 0; i < LIMIT / EVENTS_PER_READ; i++) flagged ||= cookies.read(change).overflowed;
  assert.equal(flagged, true);
  assert.equal(cookies.read([fence]).overflowed, false);
});
