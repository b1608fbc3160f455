/**
 * The service's walks while an index is built (service/joint_walks.ts, contract §28a):
 * calls that would walk alike and come close together share one walk, each answered with
 * its own outcome; a later one walks on its own; a cancelled call is answered at once, and
 * the walk stops once no call is left; a root not being built is walked by its session.
 */
import assert from "node:assert/strict";
import { JointWalks } from "../../src/service/joint_walks.ts";
import { WalkInSession } from "../../src/service/service_session.ts";
import type { RunOptions, Scanner } from "../../src/workers/mod.ts";
import type { ScanOutcome } from "../../src/walk/mod.ts";
import type { SearchRequest } from "../../src/query/mod.ts";
import { searchRequest } from "../helpers/request.ts";

/** An outcome that names the request it answers (by its page size). */
function outcomeOf(request: SearchRequest): ScanOutcome {
  return {
    stopped: null,
    collected: { first: [], walkPrefix: [], all: null, allComplete: false, total: request.limit },
    walk: { scannedDirectories: 0, scannedFiles: 0, skipped: 0, excluded: 0 },
    entries: { skipped: 0, unknownTime: 0, vcs: 0 },
  };
}

/** A walk that ends when the test says (`finish`), or is stopped by its signal. */
interface HeldWalk {
  request: SearchRequest;
  options: RunOptions;
  stopped: boolean;
  finish(hung?: boolean): void;
}

function heldScanner(walks: HeldWalk[]): Scanner {
  return {
    run(request, options = {}) {
      return new Promise((resolve, reject) => {
        const walk: HeldWalk = {
          request,
          options,
          stopped: false,
          finish: (hung = false) => {
            const joined = options.joined?.map((j) => outcomeOf(j.request));
            resolve({ ...outcomeOf(request), ...(hung ? {} : joined ? { joined } : {}) });
          },
        };
        options.signal?.addEventListener("abort", () => {
          walk.stopped = true;
          reject(options.signal!.reason);
        });
        walks.push(walk);
      });
    },
    close() {},
  };
}

const ask = (limit: number) => searchRequest("/r", { order: "time_desc", limit });
const totalOf = (o: ScanOutcome) => o.collected.total;

function jointWalks(joinMs: number, building = () => true) {
  const walks: HeldWalk[] = [];
  const made: string[] = [];
  const joint = new JointWalks({
    newScanner: (path) => {
      made.push(path);
      return heldScanner(walks);
    },
    walksHere: building,
    joinMs,
  });
  return { joint, walks, made };
}

Deno.test("joint walks: calls close together share one walk, each with its own outcome", async () => {
  const { joint, walks, made } = jointWalks(60_000);
  const a = joint.run(ask(1));
  const b = joint.run(ask(2));
  const c = joint.run(ask(3));
  assert.equal(walks.length, 3, "the walk starts again with each call that joins it");
  assert.ok(walks[0]!.stopped && walks[1]!.stopped && !walks[2]!.stopped);
  assert.deepEqual(walks[2]!.options.joined?.map((j) => j.request.limit), [2, 3]);
  walks[2]!.finish();
  assert.deepEqual((await Promise.all([a, b, c])).map(totalOf), [1, 2, 3]);
  assert.deepEqual(made, ["/r"], "one scanner for the root");
  joint.close();
});

Deno.test("joint walks: a call past the join time, or one that cannot join, walks alone", async () => {
  const { joint, walks } = jointWalks(0);
  const a = joint.run(ask(1));
  await new Promise((resolve) => setTimeout(resolve, 5));
  const b = joint.run(ask(2));
  const c = joint.run({ ...ask(3), order: "path_asc" });
  assert.equal(walks.length, 3);
  assert.ok(walks.every((w) => !w.stopped && w.options.joined === undefined));
  for (const w of walks) w.finish();
  assert.deepEqual((await Promise.all([a, b, c])).map(totalOf), [1, 2, 3]);
  joint.close();
});

Deno.test("joint walks: a cancelled call is answered at once; the walk goes on for the rest", async () => {
  const { joint, walks } = jointWalks(60_000);
  const stop = new AbortController();
  const a = joint.run(ask(1), { signal: stop.signal });
  const b = joint.run(ask(2));
  stop.abort(new DOMException("cancelled", "AbortError"));
  await assert.rejects(a, { name: "AbortError" });
  assert.ok(!walks[1]!.stopped, "the other call's walk goes on");
  walks[1]!.finish();
  assert.equal(totalOf(await b), 2);
  // Once every call of a walk is cancelled, the walk stops.
  const alone = new AbortController();
  const c = joint.run(ask(3), { signal: alone.signal });
  alone.abort(new DOMException("cancelled", "AbortError"));
  await assert.rejects(c, { name: "AbortError" });
  assert.ok(walks.at(-1)!.stopped);
  joint.close();
});

Deno.test("joint walks: a hung share leaves the joined calls to their sessions", async () => {
  const { joint, walks } = jointWalks(60_000);
  const a = joint.run(ask(1));
  const b = joint.run(ask(2));
  walks[1]!.finish(true);
  const [first, second] = await Promise.allSettled([a, b]);
  assert.equal(first.status, "fulfilled");
  assert.ok(second.status === "rejected" && second.reason instanceof WalkInSession);
  joint.close();
});

Deno.test("joint walks: a root whose index is not being built is walked by its session", async () => {
  const { joint, walks } = jointWalks(60_000, () => false);
  await assert.rejects(joint.run(ask(1)), WalkInSession);
  assert.equal(walks.length, 0);
  joint.close();
});
