/**
 * Relative windows, calendar periods and sizes (contract §21, §22, §23), through the SDK
 * client: `within` in both grammars against files whose times are set from the real clock,
 * `period` in two time zones, paging a window to the end, every clash and bad value with its
 * code, the size bounds, and the words the schema gives a model.
 */
import assert from "node:assert/strict";
import { LIST_ROOTS_TOOL } from "../../src/mcp/list_roots.ts";
import { SEARCH_INPUT_SCHEMA, SEARCH_OUTPUT_SCHEMA } from "../../src/mcp/tool_schema.ts";
import { SEARCH_TOOL } from "../../src/mcp/search_tool.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { connect, textOf } from "../helpers/server.ts";
import { makeTree } from "../helpers/tree.ts";

const MINUTE = 60_000;

interface Output {
  range: { from: string | null; to: string | null };
  matches: { path: string }[];
  nextCursor: string | null;
  stats: { totalMatches?: number };
}
const out = (r: { structuredContent?: unknown }) => r.structuredContent as Output;
const paths = (r: { structuredContent?: unknown }) => out(r).matches.map((m) => m.path).sort();

/** A tree whose files are `ages` (ms) old by the real clock. */
async function aged(ages: Record<string, number>) {
  const now = Date.now();
  const spec: Record<string, { mtime: number }> = {};
  for (const [name, age] of Object.entries(ages)) spec[name] = { mtime: now - age };
  return await makeTree(spec);
}

Deno.test({
  name: "within: both grammars, against the real clock",
  ...sanitize,
  async fn() {
    await using tree = await aged({
      "half-hour.txt": 30 * MINUTE,
      "two-hours.txt": 120 * MINUTE,
      "three-days.txt": 3 * 24 * 60 * MINUTE,
    });
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const cases: [string, string[]][] = [
      ["1h", ["half-hour.txt"]],
      ["PT1H", ["half-hour.txt"]],
      ["90min", ["half-hour.txt"]],
      ["PT90M", ["half-hour.txt"]],
      ["3h", ["half-hour.txt", "two-hours.txt"]],
      ["1d", ["half-hour.txt", "two-hours.txt"]],
      ["P1D", ["half-hour.txt", "two-hours.txt"]],
      ["3d4h", ["half-hour.txt", "three-days.txt", "two-hours.txt"]],
      ["1w", ["half-hour.txt", "three-days.txt", "two-hours.txt"]],
      ["2 weeks", ["half-hour.txt", "three-days.txt", "two-hours.txt"]],
    ];
    for (const [within, expected] of cases) {
      const before = Date.now();
      const result = await conn.search({ timeField: "modified", within });
      assert.equal(result.isError, false, `${within}: ${textOf(result)}`);
      assert.deepEqual(paths(result), expected, within);
      assert.equal(out(result).range.to, null);
      // The resolved start is echoed: about now less the duration.
      const from = Date.parse(out(result).range.from!);
      assert.ok(from < before && from > before - 30 * 24 * 60 * MINUTE, within);
      assert.match(textOf(result), /Window: since \d{4}-\d\d-\d\d \d\d:\d\d local time/);
    }
    // with 'to': the window ends there.
    const upTo = new Date(Date.now() - 60 * MINUTE).toISOString();
    const early = await conn.search({ timeField: "modified", within: "3h", to: upTo });
    assert.deepEqual(paths(early), ["two-hours.txt"]);
  },
});

for (const zone of ["Asia/Seoul", "America/New_York"]) {
  Deno.test({
    name: `period: calendar periods are local midnights in the server's zone (TZ=${zone})`,
    ...sanitize,
    async fn() {
      await using tree = await aged({ "now.txt": 0 });
      await using conn = await connect({ ALLOW_ROOTS: tree.root, TZ: zone, INDEX: "off" });
      const roots = await conn.client.callTool({ name: "fs.list_roots", arguments: {} });
      const listed = roots.structuredContent as { timeZone: { name: string; offset: string } };
      assert.equal(listed.timeZone.name, zone);
      const local = (iso: string) => Temporal.Instant.from(iso).toZonedDateTimeISO(zone);
      const steps: Record<string, Temporal.DurationLike> = {
        today: { days: 1 },
        yesterday: { days: 1 },
        this_week: { weeks: 1 },
        last_week: { weeks: 1 },
        this_month: { months: 1 },
        last_month: { months: 1 },
        this_year: { years: 1 },
        last_year: { years: 1 },
      };
      for (const [period, step] of Object.entries(steps)) {
        const result = await conn.search({ timeField: "modified", period });
        assert.equal(result.isError, false, textOf(result));
        const from = local(out(result).range.from!);
        const to = local(out(result).range.to!);
        // Both are midnights there, one calendar step apart, whatever daylight saving did.
        assert.equal(from.toPlainTime().toString(), "00:00:00", period);
        assert.equal(to.toPlainTime().toString(), "00:00:00", period);
        assert.equal(from.add(step).toString(), to.toString(), period);
        if (period.endsWith("week")) assert.equal(from.dayOfWeek, 1, `${period} starts on Monday`);
        if (period.endsWith("month")) assert.equal(from.day, 1, period);
        const now = Temporal.Now.zonedDateTimeISO(zone);
        const current = !period.startsWith("last_") && period !== "yesterday";
        if (current) {
          assert.ok(Temporal.ZonedDateTime.compare(from, now) <= 0, period);
          assert.ok(Temporal.ZonedDateTime.compare(now, to) < 0, period);
          // A file changed just now is in every current period.
          assert.deepEqual(paths(result), ["now.txt"], period);
        } else {
          assert.ok(Temporal.ZonedDateTime.compare(to, now) <= 0, period);
          assert.deepEqual(paths(result), [], period);
        }
      }
    },
  });
}

Deno.test({
  name: "within: paging a window to the end keeps the window of its first page",
  ...sanitize,
  async fn() {
    const ages: Record<string, number> = {};
    for (let i = 0; i < 12; i++) ages[`f${String(i).padStart(2, "0")}.txt`] = (i + 1) * MINUTE;
    ages["old.txt"] = 120 * MINUTE;
    await using tree = await aged(ages);
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const args = { timeField: "modified", within: "1h", limit: 5 };
    const first = await conn.search(args);
    const seen = paths(first);
    let cursor = out(first).nextCursor;
    while (cursor !== null) {
      // The clock moves between pages; "now" stays the first page's (its cursor's `c`).
      const page = await conn.search({ ...args, cursor });
      assert.equal(page.isError, false, textOf(page));
      assert.deepEqual(out(page).range, out(first).range);
      seen.push(...paths(page));
      cursor = out(page).nextCursor;
    }
    assert.equal(new Set(seen).size, seen.length, "no duplicates");
    assert.deepEqual(seen.sort(), Object.keys(ages).filter((n) => n !== "old.txt").sort());
  },
});

Deno.test({
  name: "within and period: clashes and bad values, each with its code",
  ...sanitize,
  async fn() {
    await using tree = await aged({ "a.txt": 0 });
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const at = "2026-01-01T00:00:00Z";
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { within: "1h", from: at },
        "InvalidArgument",
        /'within' and 'from' cannot be given together/,
      ],
      [{ within: "1h", period: "today" }, "InvalidArgument", /'within' and 'period'/],
      [{ period: "today", from: at }, "InvalidArgument", /'period' and 'from'/],
      [{ period: "today", to: at }, "InvalidArgument", /'period' and 'to'/],
      [{ period: "tomorrow" }, "InvalidEnum", /'period' must be one of 'today'/],
      [{ within: "5x" }, "InvalidDateTime", /'within' is not a duration/],
      [{ within: "0h" }, "InvalidDateTime", /'within' is zero/],
      [{ within: "P0D" }, "InvalidDateTime", /'within' is zero/],
      [{ within: "-P1D" }, "InvalidDateTime", /not a duration/],
      [{ within: "201y" }, "InvalidDateTime", /longer than 200 years/],
      [{ within: "1h", to: "2000-01-01T00:00:00Z" }, "InvalidRange", /'from' must not be later/],
      [{ minSizeBytes: -1 }, "InvalidArgument", /'minSizeBytes' must be a whole number/],
      [{ maxSizeBytes: 1.5 }, "InvalidArgument", /'maxSizeBytes' must be a whole number/],
      [{ minSizeBytes: 10, maxSizeBytes: 5 }, "InvalidRange", /'minSizeBytes' must not be more/],
    ];
    for (const [args, code, message] of cases) {
      const result = await conn.search({ timeField: "modified", ...args });
      assert.equal(result.isError, true, JSON.stringify(args));
      const text = textOf(result);
      assert.match(text, new RegExp(`^ErrorCode: ${code}\\n`), JSON.stringify(args));
      assert.match(text, message, JSON.stringify(args));
      // Every error says what time it is on the server (contract §4, §21).
      assert.match(text, /\nServer time: \S+Z \(.* in \S+, UTC[+-]\d\d:\d\d\)\.$/);
    }
    const fix = textOf(await conn.search({ timeField: "modified", within: "soon" }));
    assert.match(fix, /Fix: .*'24h'.*'PT24H'/, "the fix shows both forms");
  },
});

Deno.test({
  name: "minSizeBytes and maxSizeBytes: files by size, folders never",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({
      "zero.txt": { content: "" },
      "ten.txt": { content: "x".repeat(10) },
      "hundred.txt": { content: "x".repeat(100) },
      "thousand.txt": { content: "x".repeat(1000) },
      "dir/inner.txt": { content: "x".repeat(50) },
    });
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const sized = async (args: Record<string, unknown>) =>
      paths(await conn.search({ timeField: "modified", includeDirectories: true, ...args }));
    assert.deepEqual(await sized({ minSizeBytes: 100 }), ["hundred.txt", "thousand.txt"]);
    assert.deepEqual(await sized({ maxSizeBytes: 100 }), ["dir/inner.txt", "ten.txt", "zero.txt"]);
    assert.deepEqual(await sized({ minSizeBytes: 10, maxSizeBytes: 1000 }), [
      "dir/inner.txt",
      "hundred.txt",
      "ten.txt",
    ]);
    assert.deepEqual(await sized({ minSizeBytes: 0 }), [
      "dir/inner.txt",
      "hundred.txt",
      "ten.txt",
      "thousand.txt",
      "zero.txt",
    ]);
    assert.deepEqual(await sized({ minSizeBytes: 5, maxSizeBytes: 5 }), []);
  },
});

Deno.test("schema: every input says what it does, and the tool names within and period", () => {
  for (const [name, property] of Object.entries(SEARCH_INPUT_SCHEMA.properties)) {
    const description = (property as { description?: string }).description ?? "";
    assert.ok(description.length >= 30, `'${name}' has no description a model can act on`);
  }
  assert.match(SEARCH_TOOL.description!, /within: '24h'/);
  assert.match(SEARCH_TOOL.description!, /period: 'today'/);
  assert.match(SEARCH_INPUT_SCHEMA.properties.maxDepth.description, /256/);
});

Deno.test("schema: no property has a type array (the Inspector's --strict portability check)", () => {
  const typeArrays: string[] = [];
  const visit = (node: unknown, at: string) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray((node as { type?: unknown }).type)) typeArrays.push(at);
    for (const [key, child] of Object.entries(node)) visit(child, `${at}/${key}`);
  };
  visit(SEARCH_INPUT_SCHEMA, "inputSchema");
  visit(SEARCH_OUTPUT_SCHEMA, "outputSchema");
  visit(LIST_ROOTS_TOOL.outputSchema, "fs.list_roots outputSchema");
  assert.deepEqual(typeArrays, []);
});
