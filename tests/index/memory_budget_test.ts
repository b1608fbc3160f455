/**
 * The live index within its memory budget (contract §18), end to end: the server runs
 * with a small heap (V8's heap flags hold for every isolate, the index worker's too: its
 * budget is half its heap), on a tree whose index passes that budget. A worker that runs
 * out of heap takes the whole process down; instead, the index stops at its budget, the
 * root goes back to plain walks (said in `fs.list_roots`), and the server goes on
 * answering, exactly. (bench/index_soak.ts shows the same at full scale: 2,000,000
 * entries with default settings.) The heap is 20 MB: with 16 the walks after the index
 * stopped ran out of heap about one run in four (a walk of folders of 2,000 entries with
 * 240-byte names takes 11-13 MB of its worker's heap), which took the server down.
 */
import assert from "node:assert/strict";
import { NO_INDEX } from "../helpers/live_index.ts";
import path from "node:path";
import { connect, rootIndex, textOf } from "../helpers/server.ts";
import { makeTree } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

/**
 * Folders and files: long names make each entry costly, so a small tree fills the heap.
 * The files are hard links to one empty file per folder: thirty times faster to make.
 */
const FOLDERS = 40;
const FILES = 2000;
const HEAP = "--v8-flags=--max-old-space-size=20,--max-semi-space-size=1";

Deno.test({
  name: "live index: past its memory budget a root goes back to walks, and the server stays up",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({});
    for (let d = 0; d < FOLDERS; d++) {
      const dir = path.join(tree.root, `folder-${d}`);
      Deno.mkdirSync(dir);
      const first = path.join(dir, `${"한".repeat(80)}-0.txt`);
      Deno.writeFileSync(first, new Uint8Array());
      for (let f = 1; f < FILES; f++) {
        Deno.linkSync(first, path.join(dir, `${"한".repeat(80)}-${f}.txt`));
      }
    }
    const total = FOLDERS * FILES;
    // Its own index (also with TEST_SHARED_INDEX=1): the budget is that of the process
    // keeping the index, and a service runs with the start task's heap, not this server's.
    await using conn = await connect(
      { ALLOW_ROOTS: tree.root, SHARED_INDEX: "off" },
      undefined,
      [],
      HEAP,
    );
    const count = async () => {
      const result = await conn.search({ timeField: "modified", limit: 5 });
      assert.ok(!result.isError, textOf(result));
      return (result.structuredContent as { stats: { totalMatches?: number } }).stats.totalMatches;
    };
    try {
      assert.equal(await count(), total); // a walk, while the index builds
      // Its fill passes the budget: the root goes back to walks; the server answers on.
      await until(async () => (await rootIndex(conn)).state === "off", "the index to stop");
      for (let call = 0; call < 4; call++) assert.equal(await count(), total);
      const index = await rootIndex(conn);
      assert.equal(index.state, "off", JSON.stringify(index));
      assert.match(index.reason!, /memory budget \(\d+ MB\)/);
    } catch (err) {
      // A server that died says why in its last stderr lines (which isolate ran out of heap).
      throw new Error(`${err}; the server's stderr ended with:\n${conn.stderrTail()}`);
    }
  },
});
