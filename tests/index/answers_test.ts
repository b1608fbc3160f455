/**
 * Why a call on a root walks rather than asking its index (src/index/answers.ts
 * `whyWalking`): a watch set up or an index built again says why, as the status it reads
 * keeps the reason through the restart (root_keeper.ts), so the walk's note and the log
 * name it, not only the moment the index was dropped.
 */
import assert from "node:assert/strict";
import { whyWalking } from "../../src/index/answers.ts";
import type { RootState } from "../../src/index/live_index_options.ts";

const state = (s: Partial<RootState>) =>
  ({ state: "off", entries: 0, answers: { index: 0, walk: 0 }, ...s }) as RootState;
const MOUNTED = "a file system was mounted or unmounted on a folder in it";

Deno.test("whyWalking: a first start and a first build say only where they are", () => {
  assert.equal(whyWalking(state({ state: "starting" })), "its watch is starting");
  assert.equal(
    whyWalking(state({ state: "building", entries: 12 })),
    "its index is being built (12 entries read so far)",
  );
});

Deno.test("whyWalking: a watch set up again, and its index built again, say why", () => {
  assert.equal(
    whyWalking(state({ state: "starting", reason: MOUNTED })),
    `its watch is starting: ${MOUNTED}`,
  );
  assert.equal(
    whyWalking(state({ state: "building", entries: 0, reason: MOUNTED })),
    `its index is being built: ${MOUNTED} (0 entries read so far)`,
  );
  assert.equal(whyWalking(state({ reason: MOUNTED })), MOUNTED);
});
