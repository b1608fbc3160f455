/**
 * The words people and models read, shared by the MCP tool and the CLI: the one-line
 * summary of a search, the same facts as fields of the structured result, and the
 * three-line error text (contract §4).
 *
 * Every sentence of the summary line is made here once and also given as data
 * (result_words.ts): the window and the server's time as local words with their zone, every
 * other sentence as a note with a stable code.
 *
 * @module
 */
import type { ToolError } from "./errors.ts";
import type { SearchResult } from "./search/search_by_time.ts";
import { emptyAnswerHints } from "./query/hints.ts";
import { isWalkOrder } from "./query/order.ts";
import { formatTime } from "./query/time.ts";
import { localTime, serverTimeZone } from "./query/window.ts";
import { TOOL_WORDS, type Words } from "./query/words.ts";

/**
 * The stable codes of the notes a result may carry (contract §4), in the order they are
 * said. The three `Total*` ones carry the count sentence when it is not a total.
 */
export const NOTE_CODES = [
  "TotalNotCounted",
  "TotalUnknown",
  "LastPageNotCounted",
  "ScanHung",
  "EarlierScanHung",
  "CutForSize",
  "Truncated",
  "MorePages",
  "Skipped",
  "UnknownTime",
  "NothingToList",
  "AbsoluteGlob",
  "GlobFromRoot",
  "GlobTopLevel",
  "FreshInstance",
] as const;
export type NoteCode = typeof NOTE_CODES[number];

/** One sentence of the summary line, as data: a stable code and the sentence itself. */
export interface Note {
  code: NoteCode;
  message: string;
}

/** A search's time window in the server's zone, as people read it. */
export interface WindowWords {
  /** The start, inclusive, as local date-time words (`2026-11-22 00:00`); `null`: none. */
  from: string | null;
  /** The end, exclusive, likewise. */
  to: string | null;
  /** The zone's IANA name. */
  timeZone: string;
  /** The zone's offset at `from` (at `to` when there is no `from`). */
  offset: string;
}

/** The server's time as data (contract §4): UTC, local words, the zone's name and offset. */
export interface ServerClock {
  serverTime: string;
  localTime: string;
  timeZone: { name: string; offset: string };
}

/**
 * The error text: `ErrorCode:`, `Message:` and `Fix:` lines, then any detail lines.
 *
 * @example
 * ```ts
 * errorText(new ToolError("InvalidRange", "'from' must not be later than 'to'.", "Set 'from' <= 'to'."));
 * // "ErrorCode: InvalidRange\nMessage: 'from' must not be later than 'to'.\nFix: Set 'from' <= 'to'."
 * ```
 */
export function errorText(error: ToolError, now?: number): string {
  return [
    `ErrorCode: ${error.code}`,
    `Message: ${error.message}`,
    `Fix: ${error.fix}`,
    ...error.details,
    ...(now === undefined ? [] : [serverTime(now)]),
  ].join("\n");
}

/** The server's time as data: UTC, local words, the zone's name and offset. */
export function serverClock(now: number): ServerClock {
  const name = serverTimeZone();
  const { time, offset } = localTime(now, name);
  return { serverTime: formatTime(now), localTime: time, timeZone: { name, offset } };
}

/**
 * The server's time, in UTC and in its own zone (contract §4, §21), for models that do not
 * know the date or the user's zone: `Server time: 2026-11-22T21:10:00.000Z (2026-11-23
 * 06:10 in Asia/Seoul, UTC+09:00).`
 */
export function serverTime(now: number): string {
  return clockSentence(serverClock(now));
}

function clockSentence(clock: ServerClock): string {
  const { serverTime, localTime, timeZone } = clock;
  return `Server time: ${serverTime} (${localTime} in ${timeZone.name}, UTC${timeZone.offset}).`;
}

/** A window's ends in the server's zone. */
function windowOf(from: number | null, to: number | null): WindowWords | null {
  if (from === null && to === null) return null;
  const zone = serverTimeZone();
  const at = (ms: number | null) => ms === null ? null : localTime(ms, zone);
  const [start, end] = [at(from), at(to)];
  return {
    from: start?.time ?? null,
    to: end?.time ?? null,
    timeZone: zone,
    offset: (start ?? end)!.offset,
  };
}

/** The window as the summary line says it: `Window: from 2026-11-22 00:00 to ... local time (Asia/Seoul).` */
function windowSentence(window: WindowWords): string {
  const span = window.from !== null && window.to !== null
    ? `from ${window.from} to ${window.to}`
    : window.from !== null
    ? `since ${window.from}`
    : `before ${window.to}`;
  return `Window: ${span} local time (${window.timeZone}).`;
}

/**
 * E.g. `Found 2 files (sorted by modified desc). Server time: 2026-01-02T03:04:05.000Z
 * (2026-01-02 12:04 in Asia/Seoul, UTC+09:00).`
 * Without `now`, the server time is left out (the CLI's table); `words` name the inputs.
 */
export function summaryLine(
  result: SearchResult,
  now?: number,
  words: Words = TOOL_WORDS,
): string {
  const { count, window, notes } = lineParts(result, words);
  return lineOf(count.text, window, notes, now === undefined ? null : serverClock(now));
}

/** The line: the count, the window, the other notes, the server's time. */
export function lineOf(
  count: string,
  window: WindowWords | null,
  notes: Note[],
  clock: ServerClock | null,
): string {
  return [
    count,
    ...(window ? [windowSentence(window)] : []),
    ...notes.map((n) => n.message),
    ...(clock ? [clockSentence(clock)] : []),
  ].join(" ");
}

/** Every sentence of the line but the server's time, each made once; the count apart. */
export function lineParts(
  result: SearchResult,
  words: Words,
): { count: CountWords; window: WindowWords | null; notes: Note[] } {
  const { output, request } = result;
  const n = output.matches.length;
  const kind = request.filter.includeDirectories ? "entry" : "file";
  const noun = plural(n, kind);
  const order = request.order === "path_asc"
    ? "path"
    : `${request.filter.timeField} ${request.order === "time_desc" ? "desc" : "asc"}`;
  const count = countWords(result, kind, order);
  const notes: Note[] = [];
  const note = (code: NoteCode, message: string) => notes.push({ code, message });
  if (result.hung === "now") {
    note(
      "ScanHung",
      "The scan hung inside the file system (a network or cloud-synced folder that does not answer?) and was stopped; this page holds what was read before it hung.",
    );
  } else if (result.hung === "before") {
    note(
      "EarlierScanHung",
      "An earlier scan of this root hung inside the file system; if this answer is slow or partial, that is why.",
    );
  }
  if (result.cutForSize) {
    note(
      "CutForSize",
      `The page was cut to ${n} ${noun} to keep the answer short enough for the client; ${words.nextPage} for the rest.`,
    );
  }
  if (output.stats.truncated) {
    note(
      "Truncated",
      `The scan reached a server limit, so this page covers only part of the tree; ${words.nextPage} to continue` +
        (isWalkOrder(request.order)
          ? "."
          : " (after a truncated scan, time order holds within each page only)."),
    );
  } else if (output.nextCursor !== null && !result.cutForSize) {
    note("MorePages", `More results: ${words.nextPage}.`);
  }
  const { skipped } = output.stats;
  if (skipped > 0) {
    const one = skipped === 1;
    note(
      "Skipped",
      `${skipped} ${one ? "entry" : "entries"} could not be read and ${
        one ? "was" : "were"
      } skipped.`,
    );
  }
  const unknown = output.stats.unknownTime ?? 0;
  if (unknown > 0) {
    note(
      "UnknownTime",
      `${unknown} ${
        unknown === 1 ? "entry was" : "entries were"
      } left out because the file system records no created time for them; ${
        words.turnOn("includeUnknownTime")
      } to include them.`,
    );
  }
  if (n === 0 && output.nextCursor === null) notes.push(...emptyAnswerHints(request, words));
  const { from, to } = request.filter;
  return { count, window: windowOf(from, to), notes };
}

/** The count sentence, and the code of the note that says it when it is not a total. */
export interface CountWords {
  text: string;
  code: NoteCode | null;
}

/**
 * How many matched, never the page's size presented as the total (contract §4, §11, §18):
 * the total when it was counted; else what is sure: more than this page when a later page
 * is sure to hold more, or what the part of the tree scanned so far holds.
 */
function countWords(result: SearchResult, kind: "entry" | "file", order: string): CountWords {
  const { output, request } = result;
  const n = output.matches.length;
  const total = output.stats.totalMatches;
  const sorted = `(sorted by ${order})`;
  if (total !== undefined) {
    const text = total > n
      ? `Found ${total} ${plural(total, kind)}; this page shows ${n} ${sorted}.`
      : `Found ${n} ${plural(n, kind)} ${sorted}.`;
    return { text, code: null };
  }
  if (output.stats.truncated) {
    return {
      text: `Found ${n} ${
        plural(n, kind)
      } in the part of the tree scanned so far ${sorted}; the total is not known.`,
      code: "TotalUnknown",
    };
  }
  if (output.nextCursor !== null) {
    return {
      text: `Found more than ${n} ${
        plural(n + 1, kind)
      }; the total was not counted. This page shows ${n} ${sorted}.`,
      code: "TotalNotCounted",
    };
  }
  return request.after === null
    ? { text: `Found ${n} ${plural(n, kind)} ${sorted}.`, code: null }
    : {
      text: `This last page shows ${n} ${plural(n, kind)} ${sorted}; the total was not counted.`,
      code: "LastPageNotCounted",
    };
}

function plural(n: number, noun: "entry" | "file"): string {
  if (n === 1) return noun;
  return noun === "entry" ? "entries" : "files";
}
