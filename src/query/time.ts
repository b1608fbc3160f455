/**
 * RFC 3339 date-time parsing and formatting (contract §7).
 *
 * @module
 */

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Parses an RFC 3339 `date-time` with a required offset into epoch milliseconds.
 * Fractions beyond milliseconds are truncated. Returns `undefined` for anything else:
 * a date without time, a missing offset, an impossible date (Feb 30), second 60.
 *
 * @example
 * ```ts
 * parseDateTime("2025-12-15T09:00:00+09:00"); // 1765756800000
 * parseDateTime("2025-12-15"); // undefined
 * ```
 */
export function parseDateTime(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day); // not Date.UTC: it maps years 0..99 to 19xx
  d.setUTCHours(hour, minute, second, millis);
  return d.getTime() - offsetMinutes * 60_000;
}

/** Formats epoch milliseconds as `toISOString()` does (UTC, `Z`). */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString();
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
