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
 * The stable codes of the notes a result may carry (contract §4, §24a), in the order they
 * are said. The count is the summary's own sentence, never a note.
 */
export const NOTE_CODES = [
  "ScanHung",
  "EarlierScanHung",
  "IndexBuilding",
  "CutForSize",
  "Truncated",
  "MorePages",
  "Skipped",
  "UnknownTime",
  "VcsLeftOut",
  "InWholeFolders",
  "NothingToList",
  "AbsoluteGlob",
  "GlobFromRoot",
  "GlobTopLevel",
] as const;
export type NoteCode = typeof NOTE_CODES[number];

/** One sentence of the summary line, as data: a stable code and the sentence itself. */
export interface Note {
  code: NoteCode;
  message: string;
}

/** The server's time as data (contract §4, §24a: once): UTC, and the zone with its offset. */
export interface ServerClock {
  serverTime: string;
  timeZone: { name: string; offset: string };
}

/** A result's words: its one sentence, and each other fact as a note. */
export interface Said {
  /** The count (and the window): the one sentence a person reads first. */
  summary: string;
  /** Sentences of the line whose facts are fields of the result (not notes), said next. */
  fields?: string[];
  notes: Note[];
}

/**
 * The structured result in its order: the root, the summary, its notes (none: left out),
 * the output, the server's time.
 */
export function shaped<T extends object>(
  said: Said,
  root: { root?: string },
  output: T,
  now: number,
): { root?: string; summary: string; notes?: Note[] } & T & ServerClock {
  const notes = said.notes.length > 0 ? { notes: said.notes } : {};
  return { ...root, summary: said.summary, ...notes, ...output, ...serverClock(now) };
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

/** The server's time as data: UTC, and the zone's name and offset now. */
export function serverClock(now: number): ServerClock {
  const name = serverTimeZone();
  return { serverTime: formatTime(now), timeZone: { name, offset: localTime(now, name).offset } };
}

/**
 * The server's time, in UTC and in its own zone (contract §4, §21), for models that do not
 * know the date or the user's zone: `Server time: 2026-11-22T21:10:00.000Z (2026-11-23
 * 06:10 in Asia/Seoul, UTC+09:00).`
 */
export function serverTime(now: number): string {
  const name = serverTimeZone();
  const { time, offset } = localTime(now, name);
  return `Server time: ${formatTime(now)} (${time} in ${name}, UTC${offset}).`;
}

/**
 * The window as the summary says it, in the server's zone (the zone is the result's
 * `timeZone`): `Window: from 2026-11-22 00:00 to 2026-11-23 00:00 local time.`
 */
function windowSentence(from: number | null, to: number | null): string | null {
  if (from === null && to === null) return null;
  const zone = serverTimeZone();
  const at = (ms: number) => localTime(ms, zone).time;
  const span = from !== null && to !== null
    ? `from ${at(from)} to ${at(to)}`
    : from !== null
    ? `since ${at(from)}`
    : `before ${at(to!)}`;
  return `Window: ${span} local time.`;
}

/**
 * The line a person reads (`content[0]`): the summary, each note, the server's time.
 * E.g. `Found 2 files (newest first). Server time: 2026-01-02T03:04:05.000Z
 * (2026-01-02 12:04 in Asia/Seoul, UTC+09:00).` Without `now`, the time is left out (the
 * command line's table).
 */
export function lineOf(said: Said, now: number | null): string {
  return [
    said.summary,
    ...(said.fields ?? []),
    ...said.notes.map((n) => n.message),
    ...(now === null ? [] : [serverTime(now)]),
  ].join(" ");
}

/** A search's line, in `words` (the tool's, or the command line's flags). */
export function summaryLine(
  result: SearchResult,
  now?: number,
  words: Words = TOOL_WORDS,
): string {
  return lineOf(searchSaid(result, words), now ?? null);
}

/** What a search says: its count and window, and each other fact as a note. */
export function searchSaid(result: SearchResult, words: Words): Said {
  const { output, request } = result;
  const n = output.matches.length;
  const kind = request.filter.includeDirectories ? "entry" : "file";
  const noun = plural(n, kind);
  // The order in words: "(newest first)", "(oldest created first)", "(by path)".
  const created = request.filter.timeField === "created" ? " created" : "";
  const order = request.order === "path_asc"
    ? "by path"
    : `${request.order === "time_desc" ? "newest" : "oldest"}${created} first`;
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
  const building = result.walkedWhy === undefined ? null : buildingNote(result.walkedWhy);
  if (building !== null) note("IndexBuilding", building);
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
  } else if (output.nextCursor !== null && !result.cutForSize && words.morePages) {
    note("MorePages", `More results: ${words.nextPage}.`);
  }
  const skipped = output.stats.skipped ?? 0;
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
  if (result.vcs > 0) {
    const noun = result.vcs === 1 ? "matching entry" : "matching entries";
    notes.push(vcsNote(result.vcs, output.stats.totalMatches === undefined, noun, words));
  }
  if (n === 0 && output.nextCursor === null) notes.push(...emptyAnswerHints(request, words));
  const { from, to } = request.filter;
  const window = windowSentence(from, to);
  return { summary: window === null ? count : `${count} ${window}`, notes };
}

/**
 * The note on what version-control folders held (contract §27): how many `noun` inside
 * them were left out, and how to get them.
 */
export function vcsNote(count: number, atLeast: boolean, noun: string, words: Words): Note {
  return {
    code: "VcsLeftOut",
    message: `${
      atLeast ? "At least " : ""
    }${count} ${noun} inside version-control folders (.git, .hg, .svn, .jj) ${
      count === 1 && !atLeast ? "was" : "were"
    } left out; ${words.turnOn("includeVcs")} to list them.`,
  };
}

/**
 * How many matched, never the page's size presented as the total (contract §4, §11, §18):
 * the total when it was counted; else what is sure: more than this page when a later page
 * is sure to hold more, or what the part of the tree scanned so far holds.
 */
function countWords(result: SearchResult, kind: "entry" | "file", order: string): string {
  const { output, request } = result;
  const n = output.matches.length;
  const total = output.stats.totalMatches;
  const sorted = `(${order})`;
  if (total !== undefined) {
    return total > n
      ? `Found ${total} ${plural(total, kind)}; this page shows ${n} ${sorted}.`
      : `Found ${n} ${plural(n, kind)} ${sorted}.`;
  }
  if (output.stats.truncated) {
    return `Found ${n} ${
      plural(n, kind)
    } in the part of the tree scanned so far ${sorted}; the total is not known.`;
  }
  if (output.nextCursor !== null) {
    return `Found more than ${n} ${
      plural(n + 1, kind)
    }; the total was not counted. This page shows ${n} ${sorted}.`;
  }
  return request.after === null
    ? `Found ${n} ${plural(n, kind)} ${sorted}.`
    : `This last page shows ${n} ${plural(n, kind)} ${sorted}; the total was not counted.`;
}

function plural(n: number, noun: "entry" | "file"): string {
  if (n === 1) return noun;
  return noun === "entry" ? "entries" : "files";
}

/** The most characters the `IndexBuilding` note adds to a result (kept free for it). */
export const BUILDING_NOTE_ROOM = 400;

/** A walk's reason that says its root's index is not ready yet (contract §28a). */
const STILL_BUILDING =
  /its index is being built|its watch is starting|its service is being reached|its service did not start/;

/**
 * The `IndexBuilding` note (contract §28a), when the call was walked because its root's
 * index is still being built (with how far it got) or its service is still being reached;
 * `null` for any other walk.
 */
function buildingNote(why: string): string | null {
  if (!STILL_BUILDING.test(why)) return null;
  const so = /\((\d+) entries read so far\)/.exec(why)?.[1];
  const state = /being reached|did not start|service/.test(why) && so === undefined
    ? "its index service is still being reached"
    : `its index is still being built${so === undefined ? "" : ` (${so} entries read so far)`}`;
  return `Answered by a walk of the folder, since ${state}; calls after it is ready are answered from memory.`;
}
