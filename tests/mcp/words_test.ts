/**
 * Words that never mislead a model (contract §4, §11, §18, §23), through the SDK client: an
 * indexed page that did not count its matches never says the page is the total (summary
 * and JSON); a `within` written as a calendar period or a phrase names the argument that
 * fits; the arguments a cursor is bound to come from the query's own parts; a type error
 * names the argument, the type and an example built from the input; `fs.list_roots` says
 * `INDEX=off`.
 */
import assert from "node:assert/strict";
import { EVERY_FILE, QUERY_ARGUMENTS, queryArguments } from "../../src/query/request.ts";
import type { SearchOutput } from "../../src/search/search_by_time.ts";
import { indexedServer } from "../helpers/indexed_server.ts";
import { NO_INDEX } from "../helpers/live_index.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { connect, rootIndex, textOf } from "../helpers/server.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";

/** 60 files a day apart: more than a page. */
function sixty(): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < 60; i++) spec[`d${i % 6}/f${i}.txt`] = { mtime: T0 - i * DAY };
  return spec;
}

Deno.test({
  name: "words: an indexed page that did not count says 'more than', never the page as the total",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree(sixty());
    // Counting them would read more than the index may read again to count (index_loop.ts),
    // and with a glob it cannot count what its cut left out from memory (exact_drops.ts).
    await using s = await indexedServer(tree.root, {}, { countBudget: 10 });
    const before = (await s.info()).answers!.index;
    const result = await s.conn.search({ timeField: "modified", limit: 20, glob: "**/*.txt" });
    assert.equal((await s.info()).answers!.index, before + 1, "answered by the index");
    const stats = (result.structuredContent as unknown as SearchOutput).stats;
    assert.equal(stats.totalMatches, undefined, "the index did not count this one");
    assert.equal(stats.matchesAtLeast, 21);
    const summary = textOf(result);
    assert.doesNotMatch(summary, /^Found 20 files/);
    assert.match(
      summary,
      /^Found more than 20 files; the total was not counted\. This page shows 20 \(newest first\)\./,
    );
    // A walk counts them all, and says so.
    await using off = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const walked = await off.search({ timeField: "modified", limit: 20 });
    assert.match(textOf(walked), /^Found 60 files; this page shows 20 \(newest first\)/);
    assert.equal((walked.structuredContent as unknown as SearchOutput).stats.totalMatches, 60);
  },
});

Deno.test({
  name: "words: hints name the argument that fits, built from the input",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const fix = async (args: Record<string, unknown>) =>
      textOf(await conn.search({ timeField: "modified", ...args })).split("\n")[2]!;
    const periods: [string, string][] = [
      ["yesterday", "yesterday"],
      ["today", "today"],
      ["this week", "this_week"],
      ["Last-Month", "last_month"],
      ["this_year", "this_year"],
    ];
    for (const [within, period] of periods) {
      assert.equal(
        await fix({ within }),
        `Fix: For a calendar period, leave out 'within' and set 'period' to "${period}" (in the server's time zone).`,
        within,
      );
    }
    for (const [within, compact] of [["last 3 days", "3d"], ["past 2 hours", "2h"]]) {
      assert.equal(
        await fix({ within }),
        `Fix: Write it as a number and a unit: set 'within' to "${compact}".`,
      );
    }
    // A type error: which argument, which type, an example from the input.
    const limit = textOf(await conn.search({ timeField: "modified", limit: "10" }));
    assert.match(limit, /Message: 'limit' must be a number, like 10, not the string "10"\./);
    assert.match(limit, /Fix: Send 'limit' as a number: "limit": 10\./);
    assert.doesNotMatch(limit, /timeField/, "it says what is wrong, not what else is required");
    const recursive = textOf(await conn.search({ timeField: "modified", recursive: "false" }));
    assert.match(
      recursive,
      /'recursive' must be true or false, like false, not the string "false"/,
    );
    assert.match(textOf(await conn.search({})), /Message: 'timeField' is required\./);
  },
});

Deno.test({
  name: "words: the arguments a cursor is bound to come from the query's own parts",
  ...sanitize,
  async fn() {
    // Every part of the query (what its hash covers) names the arguments it comes from: a
    // new filter input does not compile until named there, and then the Fix names it.
    // `alsoCreated`: a fresh instance's (contract §24), set by no tool argument.
    assert.deepEqual(
      Object.keys(QUERY_ARGUMENTS.filter).sort(),
      [...Object.keys(EVERY_FILE), "alsoCreated"].sort(),
    );
    const names = queryArguments();
    for (const name of ["within", "period", "minSizeBytes", "maxSizeBytes", "root", "path"]) {
      assert.ok(names.includes(name), name);
    }
    await using tree = await makeTree({ "a.txt": { mtime: T0 }, "b.txt": { mtime: T0 - DAY } });
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const first = await conn.search({ timeField: "modified", limit: 1 });
    const cursor = (first.structuredContent as unknown as SearchOutput).nextCursor!;
    const other = textOf(await conn.search({ timeField: "modified", limit: 1, glob: "*", cursor }));
    assert.match(other, /^ErrorCode: CursorInvalid/);
    const fixLine = other.split("\n")[2]!;
    for (const name of names) assert.ok(fixLine.includes(name), `${name} in: ${fixLine}`);
  },
});

Deno.test({
  name: "words: fs.list_roots says INDEX=off, and counts the walks",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    assert.deepEqual(await rootIndex(conn), {
      state: "off",
      entries: 0,
      reason: "INDEX=off",
      answers: { index: 0, walk: 0 },
    });
    await conn.search({ timeField: "modified" });
    const after = await rootIndex(conn);
    assert.deepEqual([after.answers, after.lastWalk], [{ index: 0, walk: 1 }, "INDEX=off"]);
  },
});

Deno.test({
  name: "totals: an indexed answer counts when that costs little, and a last page always knows",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree(sixty());
    // Counted: reading the 66 entries again is within the index's budget.
    await using s = await indexedServer(tree.root);
    let before = (await s.info()).answers!.index;
    const counted = await s.conn.search({ timeField: "modified", limit: 20 });
    assert.equal((await s.info()).answers!.index, before + 1, "answered by the index");
    assert.equal((counted.structuredContent as unknown as SearchOutput).stats.totalMatches, 60);
    assert.match(textOf(counted), /^Found 60 files; this page shows 20 \(newest first\)/);
    // A window too (the index reads only what lies inside it).
    const windowed = await s.conn.search({
      timeField: "modified",
      limit: 5,
      from: new Date(T0 - 9 * DAY).toISOString(),
    });
    assert.equal((windowed.structuredContent as unknown as SearchOutput).stats.totalMatches, 10);
    // Past the budget, what the cut left out is still counted from memory where every file
    // in the window is a match (exact_drops.ts): no glob.
    await using small = await indexedServer(tree.root, {}, { countBudget: 10 });
    before = (await small.info()).answers!.index;
    const fromMemory = await small.conn.search({ timeField: "modified", limit: 25 });
    assert.equal((await small.info()).answers!.index, before + 1, "answered by the index");
    assert.equal((fromMemory.structuredContent as unknown as SearchOutput).stats.totalMatches, 60);
    // With a glob the first page is not counted, but its cursor counts the pages, so the
    // last page says the total.
    const glob = "**/*.txt";
    let page = await small.conn.search({ timeField: "modified", limit: 25, glob });
    assert.equal((page.structuredContent as unknown as SearchOutput).stats.totalMatches, undefined);
    const pages = [page];
    for (let next; (next = (page.structuredContent as unknown as SearchOutput).nextCursor);) {
      page = await small.conn.search({ timeField: "modified", limit: 25, glob, cursor: next });
      pages.push(page);
    }
    assert.equal(pages.length, 3);
    assert.ok((await small.info()).answers!.index > before, "the index answered");
    assert.equal((page.structuredContent as unknown as SearchOutput).stats.totalMatches, 60);
    assert.match(textOf(page), /^Found 60 files; this page shows 10 \(newest first\)/);
  },
});
