/**
 * Growing a column of the live index (src/index/store/typed_growth.ts): the values stay, the new
 * elements are zero, and the old buffer is let go at once (detached), not left for the
 * garbage collector while the longer copy is also held.
 */
import assert from "node:assert/strict";
import { grown } from "../../src/index/store/typed_growth.ts";

Deno.test("grown: a column keeps its values, gains zeros, and lets its old buffer go", () => {
  for (const make of [Uint8Array, Uint32Array, Int32Array, Float64Array]) {
    const old = new make(5).map((_, i) => i + 1);
    const buffer = old.buffer;
    const longer = grown(old, 8);
    assert.equal(longer.constructor, make);
    assert.deepEqual([...longer], [1, 2, 3, 4, 5, 0, 0, 0]);
    assert.equal(buffer.byteLength, 0); // detached: its memory is freed now
    assert.equal(old.length, 0);
  }
});
