/**
 * Names models commonly use for another argument, and values they commonly send in the
 * wrong form (contract §26): each gets a Fix that says what to send, built from what was
 * sent (`order` → `sort`, `extension: "md"` → `glob: "**\/*.md"`, `within: 3` → `'3h'` or
 * `'3d'`, `from: 1764547200` → its ISO form).
 *
 * @module
 */
import { dateTimeMistake, withinHint } from "../hints.ts";
import { parseDateTime } from "../time.ts";

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : null;

/** The instant a Fix shows where what was sent gives none. */
const EXAMPLE_INSTANT = "2025-12-01T00:00:00Z";

/** Whether `given` starts with a date (`2025-12-01...`). */
const isDate = (given: string): boolean => /^\d{4}-\d\d-\d\d/.test(given);

/** Whether `given` is a number and a unit (`3d`, `12 h`): a duration. */
const isDuration = (given: string): boolean => /^\d+\s*[a-z]+$/i.test(given);

/**
 * An instant for `from`, `to` or `since` from what was sent: a date-time (written as RFC
 * 3339 when it was not), or the example.
 */
function instantOf(value: unknown): string {
  const given = text(value);
  if (given === null || !isDate(given)) return EXAMPLE_INSTANT;
  return parseDateTime(given) !== undefined ? given : dateTimeMistake(given).corrected ??
    EXAMPLE_INSTANT;
}

/** A glob for the files of the extensions in `value` (`md`, `.md`, `["md", "txt"]`). */
function extensionGlob(value: unknown): string {
  const list = (Array.isArray(value) ? value : [value]).map(text).filter((e) => e !== null)
    .map((e) => e!.replace(/^\*?\./, ""));
  if (list.length === 0) return "**/*.md";
  return list.length === 1 ? `**/*.${list[0]}` : `**/*.{${list.join(",")}}`;
}

/** A glob for what a `pattern`/`name`/`filter` value meant: at any depth when it has no `/`. */
function globOf(value: unknown): string {
  const given = text(value);
  if (given === null) return "**/*.md";
  return given.includes("/") ? given : `**/${given}`;
}

type Meant = { meant: string; fix: (value: unknown) => string };

const sortFix: Meant = {
  meant: "sort",
  fix: () => `Use 'sort': "time_desc" (newest first, the default), "time_asc" or "path_asc".`,
};
const limitFix: Meant = {
  meant: "limit",
  fix: (v) =>
    `Use 'limit' (1 to 1000): "limit": ${
      typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 1000 ? v : 10
    }.`,
};
const globFix: Meant = {
  meant: "glob",
  fix: (v) =>
    `Use 'glob', matched against the root-relative path: "glob": ${JSON.stringify(globOf(v))}.`,
};
const extensionFix: Meant = {
  meant: "glob",
  fix: (v) => `Use 'glob' for an extension: "glob": ${JSON.stringify(extensionGlob(v))}.`,
};
const typeFix: Meant = {
  meant: "includeDirectories",
  fix: (v) =>
    /dir|folder/i.test(String(v))
      ? `Files are listed by default; for folders only set "includeDirectories": true and "includeFiles": false.`
      : `Files are listed by default; leave it out, or set "includeDirectories": true to list folders too.`,
};
const sinceFix: Meant = {
  meant: "within",
  fix: (v) => {
    const given = text(v);
    // A date: 'from', written as RFC 3339 when it was not.
    if (given !== null && isDate(given)) {
      return `Use 'from' for an instant: "from": ${JSON.stringify(instantOf(v))}.`;
    }
    // A calendar period or a phrase ("yesterday", "last 3 days") says which argument fits.
    const hint = given === null ? null : withinHint(given);
    if (hint && "period" in hint) {
      return `Use 'period' for a calendar period: "period": "${hint.period}".`;
    }
    const duration = hint?.within ?? (given !== null && isDuration(given) ? given : "7d");
    return `Use 'within' for a time back from now ("within": ${
      JSON.stringify(duration)
    }), or 'from' for an instant ("from": "${EXAMPLE_INSTANT}").`;
  },
};
const pathFix: Meant = {
  meant: "path",
  fix: (v) =>
    `Use 'path', relative to the root: "path": ${
      JSON.stringify(text(v)?.replace(/^[~/]+\/?/, "") || "docs")
    }.`,
};

/** The time field a name like `createdAfter` is about. */
const fieldOf = (name: string): string => /^created|birth/i.test(name) ? "created" : "modified";

/**
 * `modifiedAfter`, `newerThan`...: `from` with the time field the name says; a duration sent
 * (`newerThan: "3d"`) is a time back from now, `within` (contract §23a).
 */
const fromFix = (name: string): Meant => ({
  meant: "from",
  fix: (v) => {
    const field = `"timeField": "${fieldOf(name)}"`;
    const given = text(v);
    if (given !== null && isDuration(given)) {
      return `Use 'within' for a time back from now: "within": "${
        given.replace(/\s+/g, "")
      }", ${field}.`;
    }
    return `Use 'from' for the earliest time: "from": ${JSON.stringify(instantOf(v))}, ${field}.`;
  },
});

/** `modifiedBefore`, `olderThan`...: `to`, with the time field the name says. */
const toFix = (name: string): Meant => ({
  meant: "to",
  fix: (v) =>
    `Use 'to' for the latest time, an RFC 3339 date-time: "to": ${
      JSON.stringify(instantOf(v))
    }, "timeField": "${fieldOf(name)}".`,
});

/** What only `fs.changes_since` takes, sent to `fs.search_by_time`. */
const clockFix: Meant = {
  meant: "from",
  fix: () =>
    `A clock is fs.changes_since's: call fs.changes_since with "since": <the clock>, or here use 'from' for an instant ("from": "${EXAMPLE_INSTANT}").`,
};

/** Names models use for another argument, lower-cased. */
const MEANT: Record<string, Meant> = {
  modifiedafter: fromFix("modifiedAfter"),
  modifiedsince: fromFix("modifiedSince"),
  createdafter: fromFix("createdAfter"),
  createdsince: fromFix("createdSince"),
  newerthan: fromFix("newerThan"),
  modifiedbefore: toFix("modifiedBefore"),
  createdbefore: toFix("createdBefore"),
  olderthan: toFix("olderThan"),
  before: toFix("before"),
  until: toFix("until"),
  clock: clockFix,
  order: sortFix,
  orderby: sortFix,
  sortby: sortFix,
  sortorder: sortFix,
  maxresults: limitFix,
  max: limitFix,
  count: limitFix,
  top: limitFix,
  pattern: globFix,
  name: globFix,
  filter: globFix,
  query: globFix,
  extension: extensionFix,
  extensions: extensionFix,
  ext: extensionFix,
  type: typeFix,
  kind: typeFix,
  since: sinceFix,
  after: fromFix("after"),
  dir: pathFix,
  folder: pathFix,
  directory: pathFix,
  subdirectory: pathFix,
};

/** Names models use for `since` in `fs.changes_since`, lower-cased (`clock`: every answer's field). */
const SINCE_NAMES = new Set([
  "clock",
  "after",
  "from",
  "within",
  "period",
  "start",
  "time",
  "date",
  "modifiedafter",
  "modifiedsince",
  "newerthan",
]);

/** What only `fs.search_by_time` takes, sent to `fs.changes_since`: left out, and why. */
const SEARCH_ONLY: Record<string, string> = {
  timefield: "fs.changes_since reports every change whatever its time field: leave 'timeField' out",
  sort: "fs.changes_since answers in the order changes happened: leave 'sort' out",
  to: "fs.changes_since answers up to now: leave 'to' out",
};

/**
 * What `fs.changes_since` takes for a time a model gave as `value`: the same duration, the
 * date-time written as RFC 3339, or an example.
 */
function sinceValue(value: unknown): string {
  const given = text(value);
  if (given !== null && /^fts\d*\./.test(given)) return given; // a clock, as every answer gives it
  if (given !== null && isDate(given)) return instantOf(given);
  const hint = given === null ? null : withinHint(given);
  if (hint && "within" in hint) return hint.within;
  return given !== null && isDuration(given) ? given.replace(/\s+/g, "") : "24h";
}

/**
 * The argument `name` stands for and what to send, built from `value`; `null` if none. Only
 * an argument of the tool called (`known`) is named: `fs.changes_since` has no `sort` and
 * takes every time as `since`; an argument only `fs.search_by_time` has is named as its,
 * with no argument meant (`meant` empty: leave it out).
 */
export function meantArgument(
  name: string,
  value: unknown,
  known: readonly string[] = [],
): { meant: string; fix: string } | null {
  const plain = name.toLowerCase().replace(/[_-]/g, "");
  if (known.includes("since") && SEARCH_ONLY[plain] !== undefined) {
    return { meant: "", fix: `${SEARCH_ONLY[plain]} (it is fs.search_by_time's).` };
  }
  if (known.includes("since") && SINCE_NAMES.has(plain)) {
    return {
      meant: "since",
      fix: `Use 'since' for the time: "since": ${
        JSON.stringify(sinceValue(value))
      } (or a clock from an earlier answer).`,
    };
  }
  const found = MEANT[plain];
  if (!found || (known.length > 0 && !known.includes(found.meant))) return null;
  return { meant: found.meant, fix: found.fix(value) };
}

/**
 * What to send for a number given where a string is wanted, when the number says what was
 * meant: `within: 3` (a duration needs a unit), `from`/`to` as epoch seconds or
 * milliseconds (shown as the date-time they name). `null` otherwise.
 */
export function numberFix(name: string, value: unknown): string | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  if ((name === "within" || (name === "since" && value < 1e9)) && value > 0) {
    return `Give '${name}' a unit: "${name}": "${value}h" (${value} hours) or "${name}": "${value}d" (${value} days).`;
  }
  if (name === "from" || name === "to" || name === "since") {
    // Epoch seconds until the year 5138; milliseconds above that.
    const ms = Math.abs(value) < 1e11 ? value * 1000 : value;
    const date = new Date(ms);
    if (Number.isNaN(date.getTime())) return null;
    const unit = ms === value ? "milliseconds" : "seconds";
    return `Send '${name}' as an RFC 3339 date-time: "${name}": "${date.toISOString()}" (${value} read as epoch ${unit}).`;
  }
  return null;
}
