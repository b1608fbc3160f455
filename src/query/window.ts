/**
 * Relative windows and calendar periods (contract §21): `within` (an ISO 8601 duration, or
 * the friendly form `24h`, `7d`, `2weeks`, `3d4h`, `1mo`, `1y`) and `period` (`today`,
 * `this_week`, ...), resolved in the server's time zone against "now": the time the paging
 * sequence began, so that every page of it resolves the same window. The runtime's own
 * `Temporal` does the calendar and time-zone work (months and years are calendar steps,
 * weeks start on Monday, days follow the zone's clock across a daylight-saving change).
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import { withinHint } from "./hints.ts";

/** The calendar periods `period` may name. */
export const PERIODS = [
  "today",
  "yesterday",
  "this_week",
  "last_week",
  "this_month",
  "last_month",
  "this_year",
  "last_year",
] as const;
export type Period = typeof PERIODS[number];

/** The server's time zone (IANA name): the runtime's, which follows `TZ` when it is set. */
export function serverTimeZone(): string {
  return Temporal.Now.timeZoneId();
}

/** An instant as RFC 3339 with the zone's offset then: `2026-11-25T00:00:00+09:00`. */
export function zonedTime(ms: number, zone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone)
    .toString({ timeZoneName: "never", smallestUnit: "second" });
}

/** An instant in a zone, as people read it: `2026-11-23 06:10`, and the zone's offset then. */
export function localTime(
  ms: number,
  zone: string,
  smallestUnit: "minute" | "second" = "minute",
): { time: string; offset: string } {
  const zoned = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone);
  const time = zoned.toPlainDateTime().toString({ smallestUnit }).replace("T", " ");
  return { time, offset: zoned.offset };
}

type Unit = "seconds" | "minutes" | "hours" | "days" | "weeks" | "months" | "years";

const UNITS: [RegExp, Unit][] = [
  [/^(s|secs?|seconds?)$/, "seconds"],
  [/^(m|mins?|minutes?)$/, "minutes"],
  [/^(h|hrs?|hours?)$/, "hours"],
  [/^(d|days?)$/, "days"],
  [/^(w|weeks?)$/, "weeks"],
  [/^(mo|months?)$/, "months"],
  [/^(y|yrs?|years?)$/, "years"],
];

/** The longest window `within` may ask for. */
const MAX_YEARS = 200;

/**
 * The duration `within` names, checked: an ISO 8601 duration (`PT24H`, `P7D`, `P1M`) or one
 * or more `<number><unit>` parts (`24h`, `3d4h`, `90min`; `m` is minutes, `mo` months).
 *
 * @throws {ToolError} `InvalidDateTime` for anything else, or a zero duration.
 */
export function parseWithin(text: string): Temporal.Duration {
  const trimmed = text.trim();
  let duration: Temporal.Duration | null = null;
  if (/^P/i.test(trimmed)) {
    try {
      duration = Temporal.Duration.from(trimmed.toUpperCase());
    } catch {
      duration = null;
    }
  } else {
    duration = friendly(trimmed.toLowerCase());
  }
  if (duration === null || duration.sign < 0) throw badWithin(text, "is not a duration");
  if (duration.sign === 0) throw badWithin(text, "is zero");
  return duration;
}

function friendly(text: string): Temporal.Duration | null {
  const parts = [...text.matchAll(/(\d+)\s*([a-z]+)\s*/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text) return null;
  const like: Record<string, number> = {};
  for (const [, amount, unit] of parts) {
    const field = UNITS.find(([pattern]) => pattern.test(unit!))?.[1];
    if (field === undefined || field in like) return null;
    like[field] = Number(amount);
  }
  try {
    return Temporal.Duration.from(like);
  } catch {
    return null;
  }
}

/**
 * Where a `within` window starts: `now` less `duration`, stepped in `zone` (so `1mo` is the
 * same day and time a calendar month earlier).
 *
 * @throws {ToolError} `InvalidDateTime` for a window longer than 200 years.
 */
export function withinStart(text: string, now: number, zone: string): number {
  const duration = parseWithin(text);
  const end = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(zone);
  let start: Temporal.ZonedDateTime;
  try {
    start = end.subtract(duration);
  } catch {
    throw badWithin(text, `is longer than ${MAX_YEARS} years`);
  }
  if (Temporal.ZonedDateTime.compare(start, end.subtract({ years: MAX_YEARS })) < 0) {
    throw badWithin(text, `is longer than ${MAX_YEARS} years`);
  }
  return start.epochMilliseconds;
}

/** The calendar period `[from, to)` around `now` in `zone` (weeks start on Monday). */
export function periodBounds(period: Period, now: number, zone: string): {
  from: number;
  to: number;
} {
  const today = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(zone).startOfDay();
  const [start, step]: [Temporal.ZonedDateTime, Temporal.DurationLike] = period.endsWith("week")
    ? [today.subtract({ days: today.dayOfWeek - 1 }), { weeks: 1 }]
    : period.endsWith("month")
    ? [today.with({ day: 1 }).startOfDay(), { months: 1 }]
    : period.endsWith("year")
    ? [today.with({ month: 1, day: 1 }).startOfDay(), { years: 1 }]
    : [today, { days: 1 }];
  const from = period === "yesterday" || period.startsWith("last_")
    ? start.subtract(step).startOfDay()
    : start;
  return { from: from.epochMilliseconds, to: from.add(step).startOfDay().epochMilliseconds };
}

function badWithin(text: string, what: string): ToolError {
  const hint = what === "is not a duration" ? withinHint(text) : null;
  const fix = hint === null
    ? "Give a duration back from now, up to 200 years: the friendly form ('24h', '7d', '2weeks', '90min', '3d4h', '1mo', '1y'; 'm' is minutes, 'mo' months) or ISO 8601 ('PT24H', 'P7D', 'P1M')."
    : "period" in hint
    ? `For a calendar period, leave out 'within' and set 'period' to "${hint.period}" (in the server's time zone).`
    : `Write it as a number and a unit: set 'within' to "${hint.within}".`;
  return new ToolError(
    "InvalidDateTime",
    `'within' ${what}: ${JSON.stringify(text.slice(0, 40))}.`,
    fix,
  );
}
