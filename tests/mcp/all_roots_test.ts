/**
 * Every root in one call (contract §26): `root: "*"` gives what each root gives on its own,
 * merged in the requested order (ties by root order, then path), each match naming its root,
 * paged to the end with a cursor over the set, the last page stating the total: on three
 * roots whose names overlap and whose times tie, for random queries, with the index off and
 * on, through the SDK client.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import type { MatchOutput, SearchOutput } from "../../src/search/search_by_time.ts";
import { NO_INDEX } from "../helpers/live_index.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { connect, type Connection, rootIndex, textOf } from "../helpers/server.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";

/** The same names in every root, their times a day or two apart, so that they tie across. */
function rootTree(shift: number): TreeSpec {
  return {
    "a.md": { mtime: T0 + ((0 + shift) % 3) * DAY },
    "b.txt": { mtime: T0 + ((1 + shift) % 3) * DAY },
    "x/a.md": { mtime: T0 + ((2 + shift) % 3) * DAY },
    "x/c.md": { mtime: T0 + (shift % 2) * DAY },
    x: { kind: "dir", mtime: T0 + DAY },
  };
}

const QUERY = fc.record({
  sort: fc.constantFrom("time_desc", "time_asc", "path_asc"),
  limit: fc.integer({ min: 1, max: 5 }),
  includeDirectories: fc.boolean(),
  glob: fc.option(fc.constantFrom("**/*.md", "x/**", "*"), { nil: undefined }),
  from: fc.option(fc.constant(new Date(T0 + DAY).toISOString()), { nil: undefined }),
});

/** Every page of a query, followed to the end. */
async function pages(conn: Connection, args: Record<string, unknown>): Promise<SearchOutput[]> {
  const out: SearchOutput[] = [];
  let cursor: string | null = null;
  do {
    const result = await conn.search(cursor === null ? args : { ...args, cursor });
    assert.equal(result.isError, false, textOf(result));
    const page = result.structuredContent as unknown as SearchOutput;
    out.push(page);
    cursor = page.nextCursor;
    assert.ok(out.length < 100, "paging ends");
  } while (cursor !== null);
  return out;
}

/** Each root's own matches, paged to the end, merged by hand: time, then root order, then path. */
async function mergedByHand(
  conn: Connection,
  roots: string[],
  q: Record<string, unknown> & { sort: string },
): Promise<MatchOutput[]> {
  const all: { m: MatchOutput; r: number }[] = [];
  for (const [r, root] of roots.entries()) {
    for (const page of await pages(conn, { ...q, root })) {
      for (const m of page.matches) all.push({ m: { ...m, root }, r });
    }
  }
  const time = (m: MatchOutput) => Date.parse(m.modifiedAt);
  const path = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  all.sort((a, b) => {
    if (q.sort === "path_asc") return path(a.m.path, b.m.path) || a.r - b.r;
    const t = q.sort === "time_desc" ? time(b.m) - time(a.m) : time(a.m) - time(b.m);
    return t || a.r - b.r || path(a.m.path, b.m.path);
  });
  return all.map((x) => x.m);
}

for (const index of ["off", "on"]) {
  Deno.test({
    name:
      `every root: root '*' merges each root's answer in order, paged to the end (INDEX=${index})`,
    ignore: index === "on" && NO_INDEX,
    ...sanitize,
    async fn() {
      await using a = await makeTree(rootTree(0));
      await using b = await makeTree(rootTree(1));
      await using c = await makeTree(rootTree(2));
      const roots = [a.root, b.root, c.root];
      await using conn = await connect({ ALLOW_ROOTS: roots.join(";"), INDEX: index });
      if (index === "on") {
        await conn.search({ timeField: "modified", root: "*" }); // starts every root's index
        await until(async () => (await rootIndex(conn)).state === "ready", "the first index");
      }
      await fc.assert(
        fc.asyncProperty(QUERY, async (query) => {
          const q = { timeField: "modified", ...query };
          const got = await pages(conn, { ...q, root: "*" });
          const matches = got.flatMap((p) => p.matches);
          assert.deepEqual(matches, await mergedByHand(conn, roots, q), JSON.stringify(q));
          // Every page but the last is full; the last knows the total.
          for (const page of got.slice(0, -1)) assert.equal(page.matches.length, q.limit);
          assert.equal(got.at(-1)!.stats.totalMatches, matches.length, JSON.stringify(q));
        }),
        { numRuns: 12 },
      );
      // The summary and the structured result say it, with the root on each match.
      const one = await conn.search({ timeField: "modified", root: "*", limit: 4 });
      assert.match(textOf(one), /^Found 12 files; this page shows 4 \(newest first\)/);
      const first = (one.structuredContent as unknown as SearchOutput).matches[0]!;
      assert.equal(first.root, a.root);
    },
  });
}

Deno.test({
  name: "every root: a start path that some roots lack leaves them out; none has it: PathNotFound",
  ...sanitize,
  async fn() {
    await using a = await makeTree({ "docs/a.md": { mtime: T0 } });
    await using b = await makeTree({ "other/b.md": { mtime: T0 } });
    await using conn = await connect({ ALLOW_ROOTS: `${a.root};${b.root}`, INDEX: "off" });
    const some = await conn.search({ timeField: "modified", root: "*", path: "docs" });
    const found = (some.structuredContent as unknown as SearchOutput).matches;
    assert.deepEqual(found.map((m) => [m.root, m.path]), [[a.root, "docs/a.md"]]);
    const none = await conn.search({ timeField: "modified", root: "*", path: "nowhere" });
    assert.match(textOf(none), /^ErrorCode: PathNotFound/);
    // A cursor of one root is not a cursor over every root.
    const single = await conn.search({ timeField: "modified", root: a.root, limit: 1 });
    const own = (single.structuredContent as unknown as SearchOutput).nextCursor;
    if (own !== null) {
      const mixed = await conn.search({ timeField: "modified", root: "*", limit: 1, cursor: own });
      assert.match(textOf(mixed), /^ErrorCode: CursorInvalid/);
    }
  },
});

Deno.test({
  name: "every root: with scans cut by a server limit, paging still gives every match once",
  ...sanitize,
  async fn() {
    await using a = await makeTree(rootTree(0));
    await using b = await makeTree(rootTree(1));
    const roots = [a.root, b.root];
    await using conn = await connect({
      ALLOW_ROOTS: roots.join(";"),
      INDEX: "off",
      MAX_FILES_SCANNED: "2",
      ON_LIMIT: "partial",
    });
    await fc.assert(
      fc.asyncProperty(QUERY, async (query) => {
        const q = { timeField: "modified", ...query };
        const got = (await pages(conn, { ...q, root: "*" })).flatMap((p) => p.matches);
        const want = await mergedByHand(conn, roots, q);
        const key = (m: MatchOutput) => `${m.root}|${m.path}`;
        // After a truncated scan, time order holds within each page only (contract §11).
        assert.deepEqual(got.map(key).sort(), want.map(key).sort(), JSON.stringify(q));
      }),
      {
        numRuns: 10,
        // Found first: a root's page taken in part resumed its walk from the start, not from
        // where that page had resumed, and gave a match twice.
        examples: [[{
          sort: "time_desc",
          limit: 2,
          includeDirectories: false,
          glob: "**/*.md",
          from: undefined,
        }]],
      },
    );
  },
});

Deno.test({
  name: "every root: the merged page is cut to fit the client, and paging goes on",
  ...sanitize,
  async fn() {
    const long = (n: number): TreeSpec => {
      const spec: TreeSpec = {};
      for (let i = 0; i < n; i++) spec[`f${String(i).padStart(120, "x")}.txt`] = { mtime: T0 + i };
      return spec;
    };
    await using a = await makeTree(long(30));
    await using b = await makeTree(long(30));
    await using conn = await connect({
      ALLOW_ROOTS: `${a.root};${b.root}`,
      INDEX: "off",
      MAX_RESULT_CHARS: "4000",
    });
    const first = await conn.search({ timeField: "modified", root: "*", limit: 60 });
    assert.ok(JSON.stringify(first.structuredContent).length <= 4000);
    const notes = (first.structuredContent as { notes: { code: string }[] }).notes;
    assert.ok(notes.some((n) => n.code === "CutForSize"), JSON.stringify(notes));
    const all = await pages(conn, { timeField: "modified", root: "*", limit: 60 });
    assert.equal(all.flatMap((p) => p.matches).length, 60);
    assert.equal(all.at(-1)!.stats.totalMatches, 60);
  },
});
