import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { keyOrder } from "../../src/query/order.ts";
import { TopK } from "../../src/walk/top_k.ts";

const byNumber = (a: number, b: number) => a - b;

Deno.test("TopK keeps the k smallest items, smallest first", () => {
  const top = new TopK<number>(2, byNumber);
  [5, 1, 4, 2].forEach((n) => top.add(n));
  assert.deepEqual(top.sorted(), [1, 2]);
  assert.equal(top.size, 2);
});

Deno.test("TopK with k 0 keeps nothing", () => {
  const top = new TopK<number>(0, byNumber);
  [3, 1, 2].forEach((n) => top.add(n));
  assert.deepEqual(top.sorted(), []);
  assert.equal(top.size, 0);
  assert.equal(top.wouldKeep(-100), false);
});

Deno.test("TopK keeps everything when fewer than k items arrive", () => {
  const top = new TopK<number>(10, byNumber);
  [3, 1, 2].forEach((n) => top.add(n));
  assert.deepEqual(top.sorted(), [1, 2, 3]);
});

Deno.test("TopK.wouldKeep() says whether an item would be kept now", () => {
  const top = new TopK<number>(2, byNumber);
  assert.equal(top.wouldKeep(100), true); // not full yet
  top.add(5);
  top.add(3);
  assert.equal(top.wouldKeep(4), true);
  assert.equal(top.wouldKeep(5), false); // not strictly smaller than the largest kept
  assert.equal(top.wouldKeep(6), false);
});

Deno.test("TopK.sorted() does not disturb later additions", () => {
  const top = new TopK<number>(3, byNumber);
  [9, 8, 7].forEach((n) => top.add(n));
  assert.deepEqual(top.sorted(), [7, 8, 9]);
  top.add(1);
  assert.deepEqual(top.sorted(), [1, 7, 8]);
});

Deno.test("TopK works with a sort key order (time_desc)", () => {
  const top = new TopK(2, keyOrder("time_desc"));
  top.add({ time: 1, path: "a" });
  top.add({ time: null, path: "b" });
  top.add({ time: 3, path: "z" });
  top.add({ time: 3, path: "c" });
  assert.deepEqual(top.sorted(), [{ time: 3, path: "c" }, { time: 3, path: "z" }]);
});

Deno.test("TopK.sorted() equals the input sorted and cut to k", () => {
  fc.assert(
    fc.property(fc.array(fc.integer()), fc.integer({ min: 0, max: 20 }), (items, k) => {
      const top = new TopK<number>(k, byNumber);
      for (const n of items) top.add(n);
      const expected = [...items].sort(byNumber).slice(0, k);
      assert.deepEqual(top.sorted(), expected);
      assert.equal(top.size, Math.min(k, items.length));
    }),
  );
});

Deno.test("TopK.wouldKeep() predicts add() for every item", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 30 })),
      fc.integer({ min: 0, max: 20 }),
      (items, k) => {
        const top = new TopK<number>(k, byNumber);
        for (const n of items) {
          const before = top.sorted();
          const predicted = top.wouldKeep(n);
          top.add(n);
          const after = top.sorted();
          assert.equal(
            predicted,
            JSON.stringify(before) !== JSON.stringify(after) || before.length < k,
          );
        }
      },
    ),
  );
});
