/**
 * Joint walks (walk/joint.ts, contract §28a): requests walked together, each judged by its
 * own filter into its own page, get exactly the outcome each gets walked alone, on random
 * trees, for every time order, window, glob, kind, page size, share count and scan limit;
 * and what cannot join does not.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { SMALL_FOLDERS, TREE } from "../helpers/arbitraries.ts";
import { InlineScanner } from "../helpers/inline_scanner.ts";
import { searchRequest } from "../helpers/request.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs } from "../../src/ports/fs.ts";
import { strictGuard } from "../../src/security/guard.ts";
import { jointKey } from "../../src/walk/joint.ts";
import type { SearchRequest } from "../../src/query/mod.ts";

const ASK = fc.record({
  order: fc.constantFrom("time_desc" as const, "time_asc" as const),
  limit: fc.integer({ min: 1, max: 6 }),
  includeDirectories: fc.boolean(),
  from: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  days: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  glob: fc.constantFrom(null, "**/a*", "*"),
  timeField: fc.constantFrom("modified" as const, "created" as const),
  keepAll: fc.constantFrom(0, 50),
});

function requestOf(
  root: string,
  ask: typeof ASK extends fc.Arbitrary<infer A> ? A : never,
  limits: {
    maxFilesScanned?: number;
    maxDirectoriesScanned?: number;
  },
): SearchRequest {
  const base = searchRequest(root, { order: ask.order, limit: ask.limit, limits });
  const from = ask.from === null ? null : T0 + ask.from * DAY;
  return {
    ...base,
    filter: {
      ...base.filter,
      timeField: ask.timeField,
      from,
      to: from === null || ask.days === null ? null : from + ask.days * DAY,
      glob: ask.glob,
      includeDirectories: ask.includeDirectories,
    },
  };
}

Deno.test("joint walks give each request the outcome it gets walked alone", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(TREE, SMALL_FOLDERS),
      fc.array(ASK, { minLength: 2, maxLength: 4 }),
      fc.integer({ min: 1, max: 3 }),
      fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
      fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
      async (spec, asks, shares, maxFiles, maxDirs) => {
        await using tree = await makeTree(spec);
        const limits = {
          ...(maxFiles === undefined ? {} : { maxFilesScanned: maxFiles }),
          ...(maxDirs === undefined ? {} : { maxDirectoriesScanned: maxDirs }),
        };
        const requests = asks.map((ask) => requestOf(tree.root, ask, limits));
        assert.equal(new Set(requests.map(jointKey)).size, 1, "they walk alike");
        const scanner = new InlineScanner(
          { fs: denoFs, clock: systemClock, guard: strictGuard },
          shares,
        );
        const alone = [];
        for (const [i, request] of requests.entries()) {
          alone.push(await scanner.run(request, { keepAll: asks[i]!.keepAll }));
        }
        const [first, ...rest] = requests;
        const together = await scanner.run(first!, {
          keepAll: asks[0]!.keepAll,
          joined: rest.map((request, i) => ({ request, keepAll: asks[i + 1]!.keepAll })),
        });
        const { joined, ...own } = together;
        assert.deepEqual([own, ...joined!], alone);
      },
    ),
    { numRuns: 120 },
  );
});

Deno.test("what cannot be walked alike has its own key", () => {
  const base = searchRequest("/r", { order: "time_desc" });
  const key = jointKey(base)!;
  assert.ok(key);
  assert.equal(jointKey({ ...base, order: "path_asc" }), null, "path order stops on its own page");
  const after = { key: null, boundary: "a", chain: 1 };
  assert.equal(jointKey({ ...base, after }), null, "a later page starts at its cursor");
  const other = (r: SearchRequest) => assert.notEqual(jointKey(r), key);
  other({ ...base, start: { ...base.start, path: "sub" } });
  other({ ...base, start: { ...base.start, maxDepth: 1 } });
  other({ ...base, filter: { ...base.filter, exclude: ["x"] } });
  other({ ...base, filter: { ...base.filter, respectIgnoreFiles: true } });
  other({ ...base, limits: { ...base.limits, maxFilesScanned: 5 } });
  // What each request judges on its own does not part them.
  const same = (r: SearchRequest) => assert.equal(jointKey(r), key);
  same({ ...base, order: "time_asc", limit: 3 });
  same({ ...base, filter: { ...base.filter, glob: "*.md", timeField: "created", from: 1 } });
  same({ ...base, limits: { ...base.limits, scanTimeoutMs: 5 } });
});
