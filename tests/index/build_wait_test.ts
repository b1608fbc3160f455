/**
 * A call on a root whose index is being built (contract §28a, index/build_wait.ts): when the
 * build will end sooner than a walk of the root, the call waits for it and is answered by the
 * index; the pace of a build is told from what it has read, and a build too early to tell
 * (or a root whose walk cost is unknown) is not waited for.
 */
import assert from "node:assert/strict";
import { buildLeftMs } from "../../src/index/build_wait.ts";
import { newRootIndex } from "../../src/index/root_record.ts";
import { liveIndex, NO_INDEX } from "../helpers/live_index.ts";
import { searchRequest } from "../helpers/request.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { until } from "../helpers/until.ts";

Deno.test("build wait: what is left of a build, from its pace so far", () => {
  const root = newRootIndex(1, { path: "/r", realPath: "/r" }, new Int32Array(1));
  const cost = { entries: 10_000, ms: 1000 };
  assert.equal(buildLeftMs(root, cost, 0), null, "not building");
  root.status = { state: "building", entries: 400 };
  root.buildStartedAt = 0;
  assert.equal(buildLeftMs(root, cost, 1000), null, "4% read: its pace not trusted yet");
  root.status = { state: "building", entries: 5000 };
  assert.equal(buildLeftMs(root, cost, 2000), 2000, "half read in 2 s: 2 s left");
  root.status = { state: "building", entries: 12_000 };
  assert.equal(buildLeftMs(root, cost, 2000), 0, "past the walk's count: about done");
});

Deno.test({
  name: "build wait: a call made while a build will end sooner than a walk is answered by it",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    // 30,000 files in 150 folders: a build of about half a second or more.
    const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "fts-build-wait-" }));
    for (let d = 0; d < 150; d++) {
      Deno.mkdirSync(`${root}/d${d}`);
      for (let f = 0; f < 200; f++) Deno.writeTextFileSync(`${root}/d${d}/f${f}.txt`, "");
    }
    const index = liveIndex(root, { eager: true });
    try {
      await until(() => index.status()[0]!.state !== "starting", "the build begun");
      // Held as a walk elsewhere would hold it, the fill gives way (it still goes on, slower).
      const held = index.hold();
      await until(() => {
        const status = index.status()[0]!;
        return status.state === "ready" || (status.state === "building" && status.entries > 3000);
      }, "the build under way");
      const by: string[] = [];
      // A walk of this root said to take a minute: whatever is left of the build is sooner.
      const answer = index.run(searchRequest(root, { order: "time_desc", limit: 5 }), {
        walkCost: { entries: 30_151, ms: 60_000 },
        onAnswered: (said) => by.push(said),
      });
      held();
      const outcome = await answer;
      assert.deepEqual(by, ["the index"]);
      assert.ok(outcome.collected.first.length >= 5);
      assert.deepEqual(index.status()[0]!.answers, { index: 1, walk: 0 });
    } finally {
      index.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
