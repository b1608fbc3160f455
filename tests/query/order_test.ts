import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { comparePaths, keyOrder } from "../../src/query/order.ts";
import { type SortKey, SORTS } from "../../src/query/request.ts";

function sortBy(sort: (typeof SORTS)[number], keys: SortKey[]): string[] {
  return [...keys].sort(keyOrder(sort)).map((k) => `${k.time}:${k.path}`);
}

const KEYS: SortKey[] = [
  { time: 1, path: "b" },
  { time: 2, path: "c" },
  { time: null, path: "z" },
  { time: 2, path: "a" },
  { time: null, path: "m" },
  { time: 3, path: "d" },
];

Deno.test("keyOrder('time_desc') puts newest first, ties by path, unknown times last", () => {
  assert.deepEqual(sortBy("time_desc", KEYS), [
    "3:d",
    "2:a",
    "2:c",
    "1:b",
    "null:m",
    "null:z",
  ]);
});

Deno.test("keyOrder('time_asc') puts oldest first, ties by path, unknown times last", () => {
  assert.deepEqual(sortBy("time_asc", KEYS), [
    "1:b",
    "2:a",
    "2:c",
    "3:d",
    "null:m",
    "null:z",
  ]);
});

Deno.test("keyOrder('path_asc') orders by path alone", () => {
  assert.deepEqual(sortBy("path_asc", KEYS), ["2:a", "1:b", "2:c", "3:d", "null:m", "null:z"]);
});

Deno.test("keyOrder() breaks equal times by path ascending in both time orders", () => {
  const keys = [{ time: 5, path: "b/x" }, { time: 5, path: "a" }, { time: 5, path: "b" }];
  assert.deepEqual(sortBy("time_desc", keys), ["5:a", "5:b", "5:b/x"]);
  assert.deepEqual(sortBy("time_asc", keys), ["5:a", "5:b", "5:b/x"]);
});

Deno.test("keyOrder() puts unknown times after every known time, even negative ones", () => {
  const keys = [{ time: null, path: "a" }, { time: -1e15, path: "b" }, { time: 0, path: "c" }, {
    time: 1e15,
    path: "d",
  }];
  assert.deepEqual(sortBy("time_desc", keys), [
    "1000000000000000:d",
    "0:c",
    "-1000000000000000:b",
    "null:a",
  ]);
  assert.deepEqual(sortBy("time_asc", keys), [
    "-1000000000000000:b",
    "0:c",
    "1000000000000000:d",
    "null:a",
  ]);
});

Deno.test("keyOrder() returns 0 for equal keys", () => {
  for (const sort of SORTS) {
    assert.equal(keyOrder(sort)({ time: 1, path: "a" }, { time: 1, path: "a" }), 0, sort);
    assert.equal(keyOrder(sort)({ time: null, path: "a" }, { time: null, path: "a" }), 0, sort);
  }
});

Deno.test("keyOrder('path_asc') compares UTF-16 code units: 'Z' < 'a' < 'é'", () => {
  const keys = [{ time: 1, path: "é" }, { time: 1, path: "a" }, { time: 1, path: "Z" }];
  assert.deepEqual(sortBy("path_asc", keys), ["1:Z", "1:a", "1:é"]);
});

Deno.test("keyOrder('path_asc') puts a surrogate pair before U+FFFF (code units, not code points)", () => {
  const emoji = "\u{1F600}"; // "\uD83D\uDE00": code point above U+FFFF, code units below
  const keys = [{ time: 1, path: "\uFFFF" }, { time: 1, path: emoji }];
  assert.deepEqual([...keys].sort(keyOrder("path_asc")).map((k) => k.path), [emoji, "\uFFFF"]);
  assert.ok(comparePaths(emoji, "\uFFFF") < 0);
});

Deno.test("keyOrder('path_asc') puts a folder's '/' children after names with lower code units", () => {
  // '-' (0x2D) and '.' (0x2E) sort before '/' (0x2F): plain string order, not tree order.
  const keys = [{ time: 1, path: "a/b" }, { time: 1, path: "a.txt" }, { time: 1, path: "a-b" }, {
    time: 1,
    path: "a",
  }];
  assert.deepEqual(sortBy("path_asc", keys), ["1:a", "1:a-b", "1:a.txt", "1:a/b"]);
});

Deno.test("comparePaths() agrees with the JavaScript '<' operator", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
      const c = comparePaths(a, b);
      assert.equal(c < 0, a < b);
      assert.equal(c > 0, a > b);
      assert.equal(c === 0, a === b);
    }),
  );
});

const keyArb = fc.record({
  time: fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }),
  path: fc.string({ maxLength: 3, unit: fc.constantFrom("a", "b", "/", "é") }),
});

Deno.test("keyOrder() is antisymmetric and transitive for every sort", () => {
  fc.assert(
    fc.property(fc.constantFrom(...SORTS), keyArb, keyArb, keyArb, (sort, a, b, c) => {
      const order = keyOrder(sort);
      assert.equal(Math.sign(order(a, b)), -Math.sign(order(b, a)) || 0);
      if (order(a, b) <= 0 && order(b, c) <= 0) assert.ok(order(a, c) <= 0);
    }),
  );
});

Deno.test("keyOrder() of a time sort puts known times before unknown ones", () => {
  fc.assert(
    fc.property(
      fc.constantFrom("time_desc" as const, "time_asc" as const),
      fc.integer(),
      fc.string(),
      fc.string(),
      (sort, t, p, q) => {
        assert.ok(keyOrder(sort)({ time: t, path: p }, { time: null, path: q }) < 0);
      },
    ),
  );
});
