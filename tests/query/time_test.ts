import assert from "node:assert/strict";
import { formatTime, parseDateTime } from "../../src/query/time.ts";

/** Epoch ms of a UTC calendar time, without Date.UTC's mapping of years 0..99 to 19xx. */
function utc(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  ms = 0,
): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

Deno.test("parseDateTime() converts an offset of +09:00 to UTC", () => {
  assert.equal(parseDateTime("2025-12-15T09:00:00+09:00"), Date.UTC(2025, 11, 15, 0, 0, 0));
});

Deno.test("parseDateTime() accepts an upper-case Z", () => {
  assert.equal(parseDateTime("2025-12-15T00:00:00Z"), Date.UTC(2025, 11, 15));
});

Deno.test("parseDateTime() accepts a lower-case z", () => {
  assert.equal(parseDateTime("2025-12-15T00:00:00z"), Date.UTC(2025, 11, 15));
});

Deno.test("parseDateTime() accepts a lower-case t", () => {
  assert.equal(parseDateTime("2025-12-15t01:02:03Z"), Date.UTC(2025, 11, 15, 1, 2, 3));
});

Deno.test("parseDateTime() converts a negative offset with minutes (-05:30)", () => {
  assert.equal(parseDateTime("2025-12-15T00:00:00-05:30"), Date.UTC(2025, 11, 15, 5, 30, 0));
});

Deno.test("parseDateTime() crosses a day boundary with a positive offset", () => {
  assert.equal(parseDateTime("2025-01-01T00:30:00+01:00"), Date.UTC(2024, 11, 31, 23, 30, 0));
});

Deno.test("parseDateTime() treats +00:00 and -00:00 like Z", () => {
  const z = Date.UTC(2025, 5, 1, 12);
  assert.equal(parseDateTime("2025-06-01T12:00:00+00:00"), z);
  assert.equal(parseDateTime("2025-06-01T12:00:00-00:00"), z);
});

Deno.test("parseDateTime() accepts fractions of 1 to 9 digits and truncates them to ms", () => {
  const base = Date.UTC(2025, 11, 15, 0, 0, 0);
  const cases: [string, number][] = [
    ["1", 100],
    ["12", 120],
    ["123", 123],
    ["1234", 123],
    ["12345", 123],
    ["123456", 123],
    ["1234567", 123],
    ["12345678", 123],
    ["123456789", 123],
    ["999999999", 999],
    ["0009", 0],
    ["000", 0],
  ];
  for (const [fraction, ms] of cases) {
    assert.equal(
      parseDateTime(`2025-12-15T00:00:00.${fraction}Z`),
      base + ms,
      `fraction .${fraction}`,
    );
  }
});

Deno.test("parseDateTime() never rounds a fraction up into the next second", () => {
  assert.equal(
    parseDateTime("2025-12-31T23:59:59.9999999Z"),
    Date.UTC(2025, 11, 31, 23, 59, 59, 999),
  );
});

Deno.test("parseDateTime() keeps year 0001 (not 1901)", () => {
  const ms = parseDateTime("0001-01-01T00:00:00Z");
  assert.equal(ms, utc(1, 1, 1));
  assert.equal(ms, -62135596800000);
  assert.equal(new Date(ms!).getUTCFullYear(), 1);
});

Deno.test("parseDateTime() keeps year 0099 (not 1999)", () => {
  const ms = parseDateTime("0099-12-31T23:59:59Z");
  assert.equal(ms, utc(99, 12, 31, 23, 59, 59));
  assert.equal(new Date(ms!).getUTCFullYear(), 99);
});

Deno.test("parseDateTime() accepts Feb 29 in leap years 2024 and 2000", () => {
  assert.equal(parseDateTime("2024-02-29T00:00:00Z"), Date.UTC(2024, 1, 29));
  assert.equal(parseDateTime("2000-02-29T00:00:00Z"), Date.UTC(2000, 1, 29));
});

Deno.test("parseDateTime() rejects Feb 29 in non-leap years 2025 and 1900", () => {
  assert.equal(parseDateTime("2025-02-29T00:00:00Z"), undefined);
  assert.equal(parseDateTime("1900-02-29T00:00:00Z"), undefined);
});

Deno.test("parseDateTime() accepts the last day of each month and rejects the day after", () => {
  const last = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  last.forEach((day, i) => {
    const mm = String(i + 1).padStart(2, "0");
    assert.equal(
      parseDateTime(`2025-${mm}-${day}T00:00:00Z`),
      Date.UTC(2025, i, day),
      `2025-${mm}-${day}`,
    );
    assert.equal(parseDateTime(`2025-${mm}-${day + 1}T00:00:00Z`), undefined, `${mm}-${day + 1}`);
  });
});

Deno.test("parseDateTime() accepts the extreme valid clock values", () => {
  assert.equal(parseDateTime("2025-12-15T23:59:59Z"), Date.UTC(2025, 11, 15, 23, 59, 59));
  assert.equal(parseDateTime("2025-12-15T00:00:00+23:59"), Date.UTC(2025, 11, 14, 0, 1, 0));
});

Deno.test("parseDateTime() rejects values that are not RFC 3339 date-times with an offset", () => {
  const invalid = [
    "",
    "2025-12-15", // date only
    "2025-12-15T00:00:00", // no offset
    "2025-12-15T00:00", // missing seconds
    "2025-12-15T00:00Z", // missing seconds, with offset
    "1765756800000", // epoch ms
    "1765756800", // epoch s
    "2025-02-30T00:00:00Z", // Feb 30
    "2025-04-31T00:00:00Z", // Apr 31
    "2025-12-00T00:00:00Z", // day 0
    "2025-00-15T00:00:00Z", // month 0
    "2025-13-01T00:00:00Z", // month 13
    "2025-12-31T23:59:60Z", // leap second
    "2025-12-15T24:00:00Z", // hour 24
    "2025-12-15T00:60:00Z", // minute 60
    "2025-12-15T00:00:00+24:00", // offset hour 24
    "2025-12-15T00:00:00+09:60", // offset minute 60
    "2025-12-15T00:00:00+0900", // offset without colon
    "2025-12-15T00:00:00+09", // offset without minutes
    "2025-12-15T00:00:00Z ", // trailing space
    " 2025-12-15T00:00:00Z", // leading space
    "2025-12-15T00:00:00Z\n", // trailing newline
    "2025-12-15 00:00:00Z", // space instead of T
    "2025-12-15T00:00:00.Z", // empty fraction
    "2025-12-15T00:00:00,5Z", // comma fraction
    "25-12-15T00:00:00Z", // two-digit year
    "+002025-12-15T00:00:00Z", // expanded year
    "2025-1-15T00:00:00Z", // one-digit month
    "２０２５-12-15T00:00:00Z", // full-width digits
  ];
  for (const text of invalid) {
    assert.equal(parseDateTime(text), undefined, JSON.stringify(text));
  }
});

Deno.test("formatTime() writes UTC with a Z and milliseconds", () => {
  assert.equal(formatTime(0), "1970-01-01T00:00:00.000Z");
  assert.equal(formatTime(Date.UTC(2025, 11, 15, 0, 0, 0, 5)), "2025-12-15T00:00:00.005Z");
});

Deno.test("formatTime() keeps a four-digit year below 100", () => {
  assert.equal(formatTime(-62135596800000), "0001-01-01T00:00:00.000Z");
});

Deno.test("formatTime() and parseDateTime() round-trip", () => {
  for (
    const text of [
      "2025-12-15T00:00:00.123Z",
      "0099-12-31T23:59:59.999Z",
      "1970-01-01T00:00:00.000Z",
    ]
  ) {
    const ms = parseDateTime(text);
    assert.notEqual(ms, undefined);
    assert.equal(formatTime(ms!), text);
  }
  assert.equal(formatTime(parseDateTime("2025-12-15T09:00:00+09:00")!), "2025-12-15T00:00:00.000Z");
});
