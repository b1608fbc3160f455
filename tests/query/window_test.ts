/**
 * `within` and `period` resolved at fixed instants (contract §21): calendar steps in the
 * zone, across New York's daylight-saving changes, and both grammars of `within`.
 */
import assert from "node:assert/strict";
import { ToolError } from "../../src/errors.ts";
import { parseWithin, periodBounds, withinStart } from "../../src/query/window.ts";
import { iso } from "../helpers/tree.ts";

const NY = "America/New_York";

Deno.test("period: New York's midnights across the spring change (2026-03-08)", () => {
  const now = Date.parse("2026-03-09T16:00:00Z"); // Monday, noon EDT
  const expect: Record<string, [string, string]> = {
    today: ["2026-03-09T04:00:00.000Z", "2026-03-10T04:00:00.000Z"],
    yesterday: ["2026-03-08T05:00:00.000Z", "2026-03-09T04:00:00.000Z"], // a 23-hour day
    this_week: ["2026-03-09T04:00:00.000Z", "2026-03-16T04:00:00.000Z"],
    last_week: ["2026-03-02T05:00:00.000Z", "2026-03-09T04:00:00.000Z"],
    this_month: ["2026-03-01T05:00:00.000Z", "2026-04-01T04:00:00.000Z"],
    last_month: ["2026-02-01T05:00:00.000Z", "2026-03-01T05:00:00.000Z"],
    this_year: ["2026-01-01T05:00:00.000Z", "2027-01-01T05:00:00.000Z"],
    last_year: ["2025-01-01T05:00:00.000Z", "2026-01-01T05:00:00.000Z"],
  };
  for (const [period, [from, to]] of Object.entries(expect)) {
    const b = periodBounds(period as Parameters<typeof periodBounds>[0], now, NY);
    assert.deepEqual([iso(b.from), iso(b.to)], [from, to], period);
  }
});

Deno.test("period: New York's autumn change (2026-11-01) and Seoul, which has none", () => {
  const now = Date.parse("2026-11-02T15:00:00Z"); // Monday 10:00 EST
  const y = periodBounds("yesterday", now, NY); // a 25-hour day
  assert.deepEqual([iso(y.from), iso(y.to)], [
    "2026-11-01T04:00:00.000Z",
    "2026-11-02T05:00:00.000Z",
  ]);
  const seoul = periodBounds("today", now, "Asia/Seoul"); // already the 3rd there
  assert.deepEqual([iso(seoul.from), iso(seoul.to)], [
    "2026-11-02T15:00:00.000Z",
    "2026-11-03T15:00:00.000Z",
  ]);
});

Deno.test("within: hours are exact, days and months are calendar steps in the zone", () => {
  const now = Date.parse("2026-03-09T16:00:00Z");
  assert.equal(iso(withinStart("24h", now, NY)), "2026-03-08T16:00:00.000Z");
  assert.equal(iso(withinStart("PT24H", now, NY)), "2026-03-08T16:00:00.000Z");
  // One day back from noon on the day of the spring change is noon the day before, local
  // time: 23 hours.
  const changeDay = Date.parse("2026-03-08T16:00:00Z");
  assert.equal(iso(withinStart("1d", changeDay, NY)), "2026-03-07T17:00:00.000Z");
  assert.equal(iso(withinStart("P1D", changeDay, NY)), "2026-03-07T17:00:00.000Z");
  assert.equal(iso(withinStart("24h", changeDay, NY)), "2026-03-07T16:00:00.000Z");
  assert.equal(iso(withinStart("1mo", now, NY)), "2026-02-09T17:00:00.000Z");
  assert.equal(iso(withinStart("P1Y2M", now, NY)), "2025-01-09T17:00:00.000Z");
  assert.equal(iso(withinStart("3d4h", now, "UTC")), "2026-03-06T12:00:00.000Z");
});

Deno.test("within: the friendly units, and what is refused", () => {
  const same: [string, string][] = [
    ["90min", "PT90M"],
    ["90m", "PT90M"],
    ["2 weeks", "P14D"],
    ["2w", "P2W"],
    ["1 year", "P1Y"],
    ["1yr", "P1Y"],
    ["3 hours", "PT3H"],
    ["45 sec", "PT45S"],
  ];
  const now = Date.parse("2026-06-15T12:00:00Z");
  for (const [friendly, isoForm] of same) {
    assert.equal(withinStart(friendly, now, "UTC"), withinStart(isoForm, now, "UTC"), friendly);
  }
  for (const bad of ["", "h", "5x", "1h1h", "1.5h", "-1h", "P", "P0D", "0h", "201y", "P201Y"]) {
    assert.throws(
      () => withinStart(bad, now, "UTC"),
      (e: unknown) => e instanceof ToolError && e.code === "InvalidDateTime",
      bad,
    );
  }
  assert.equal(parseWithin("pt1h").toString(), "PT1H");
});
