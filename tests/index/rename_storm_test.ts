/**
 * Ready soon after a rename storm (contract §18, issue 57): the folders at a root's top
 * renamed back and forth for two seconds, the root watched in parts (a link out beside
 * them), so the watch's plan changes and it is set up again and again while folders come
 * and go under it: the index is ready within 10 s of the storm's end, three
 * storms in three, and then answers exactly as a walk. Last round it waited out a 60 s timer
 * twice in three (a watch whose set-up met a folder removed meanwhile was tried again after
 * a minute).
 */
import assert from "node:assert/strict";
import { indexedServer } from "../helpers/indexed_server.ts";
import { NO_INDEX } from "../helpers/live_index.ts";
import { makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

const ALL = { timeField: "modified", limit: 500, includeDirectories: true };
/** Folders at the root's top, each with a few folders and files of its own. */
const TOP = 30;
const STORM_MS = 2000;
const READY_WITHIN_MS = 10_000;

function spec(): TreeSpec {
  const out: TreeSpec = {};
  for (let d = 0; d < TOP; d++) {
    for (let s = 0; s < 3; s++) out[`d${d}/s${s}/f.txt`] = { mtime: T0 + d * 10 + s };
  }
  return out;
}

Deno.test({
  name:
    "rename storm: the folders at a root's top renamed for 2 s: ready within 10 s, three in three",
  ignore: NO_INDEX || Deno.build.os === "windows",
  ...sanitize,
  async fn() {
    await using tree = await makeTree(spec());
    // A link out at the top: the root is watched in parts, one a top folder (watch_plan.ts),
    // so each rename changes the watch's plan and has it set up again.
    await using outside = await makeTree({ "o.txt": { mtime: T0 } });
    Deno.symlinkSync(outside.root, tree.abs("link-out"));
    await using server = await indexedServer(tree.root);
    const waits: number[] = [];
    const readies: number[] = [];
    for (let storm = 0; storm < 3; storm++) {
      const end = Date.now() + STORM_MS;
      let moved = false;
      // Renamed away and back until the time is up, ending under their first names.
      while (Date.now() < end || moved) {
        for (let d = 0; d < TOP; d++) {
          const [from, to] = moved ? [`d${d}-moved`, `d${d}`] : [`d${d}`, `d${d}-moved`];
          Deno.renameSync(tree.abs(from), tree.abs(to));
        }
        moved = !moved;
        await new Promise((resolve) => setTimeout(resolve, 0)); // let the server's pipes flow
      }
      const ended = Date.now();
      // Ready, and answering from memory again (each answer meanwhile exact, as a walk's).
      await until(async () => (await server.info()).state === "ready", "ready after the storm");
      readies.push(Date.now() - ended);
      await until(async () => await server.same(ALL) === "index", "answered by the index");
      waits.push(Date.now() - ended);
    }
    assert.ok(
      waits.every((ms) => ms < READY_WITHIN_MS),
      `by the index within 10 s of each storm's end: ${waits.join(", ")} ms (ready ${readies})`,
    );
  },
});
