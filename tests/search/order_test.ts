import assert from "node:assert/strict";
import fc from "fast-check";
import { comparePaths, keyOrder } from "../../src/search/order.ts";
import { type SortKey, SORTS } from "../../src/search/query.ts";

function sortBy(sort: (typeof SORTS)[number], keys: SortKey[]): string[] {
  return [...keys].sort(keyOrder(sort)).map((k) => `${k.t}:${k.p}`);
}

const KEYS: SortKey[] = [
  { t: 1, p: "b" },
  { t: 2, p: "c" },
  { t: null, p: "z" },
  { t: 2, p: "a" },
  { t: null, p: "m" },
  { t: 3, p: "d" },
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
  const keys = [{ t: 5, p: "b/x" }, { t: 5, p: "a" }, { t: 5, p: "b" }];
  assert.deepEqual(sortBy("time_desc", keys), ["5:a", "5:b", "5:b/x"]);
  assert.deepEqual(sortBy("time_asc", keys), ["5:a", "5:b", "5:b/x"]);
});

Deno.test("keyOrder() puts unknown times after every known time, even negative ones", () => {
  const keys = [{ t: null, p: "a" }, { t: -1e15, p: "b" }, { t: 0, p: "c" }, { t: 1e15, p: "d" }];
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
    assert.equal(keyOrder(sort)({ t: 1, p: "a" }, { t: 1, p: "a" }), 0, sort);
    assert.equal(keyOrder(sort)({ t: null, p: "a" }, { t: null, p: "a" }), 0, sort);
  }
});

Deno.test("keyOrder('path_asc') compares UTF-16 code units: 'Z' < 'a' < 'é'", () => {
  const keys = [{ t: 1, p: "é" }, { t: 1, p: "a" }, { t: 1, p: "Z" }];
  assert.deepEqual(sortBy("path_asc", keys), ["1:Z", "1:a", "1:é"]);
});

Deno.test("keyOrder('path_asc') puts a surrogate pair before U+FFFF (code units, not code points)", () => {
  const emoji = "\u{1F600}"; // "\uD83D\uDE00": code point above U+FFFF, code units below
  const keys = [{ t: 1, p: "\uFFFF" }, { t: 1, p: emoji }];
  assert.deepEqual([...keys].sort(keyOrder("path_asc")).map((k) => k.p), [emoji, "\uFFFF"]);
  assert.ok(comparePaths(emoji, "\uFFFF") < 0);
});

Deno.test("keyOrder('path_asc') puts a folder's '/' children after names with lower code units", () => {
  // '-' (0x2D) and '.' (0x2E) sort before '/' (0x2F): plain string order, not tree order.
  const keys = [{ t: 1, p: "a/b" }, { t: 1, p: "a.txt" }, { t: 1, p: "a-b" }, { t: 1, p: "a" }];
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
  t: fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }),
  p: fc.string({ maxLength: 3, unit: fc.constantFrom("a", "b", "/", "é") }),
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
        assert.ok(keyOrder(sort)({ t, p }, { t: null, p: q }) < 0);
      },
    ),
  );
});
