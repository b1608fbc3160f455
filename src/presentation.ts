/**
 * The words people and models read, shared by the MCP tool and the CLI: the one-line
 * summary of a search, and the three-line error text (contract §4).
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

/**
 * The server's time, in UTC and in its own zone (contract §4, §21), for models that do not
 * know the date or the user's zone: `Server time: 2026-11-22T21:10:00.000Z (2026-11-23
 * 06:10 in Asia/Seoul, UTC+09:00).`
 */
export function serverTime(now: number): string {
  const zone = serverTimeZone();
  const { time, offset } = localTime(now, zone);
  return `Server time: ${formatTime(now)} (${time} in ${zone}, UTC${offset}).`;
}

/** A time window as people read it, in the server's zone: `from 2026-11-22 00:00 to ...`. */
function windowWords(from: number | null, to: number | null): string {
  const zone = serverTimeZone();
  const at = (ms: number) => localTime(ms, zone).time;
  const span = from !== null && to !== null
    ? `from ${at(from)} to ${at(to)}`
    : from !== null
    ? `since ${at(from)}`
    : `before ${at(to!)}`;
  return `Window: ${span} local time (${zone}).`;
}

/**
 * E.g. `Found 2 files (sorted by modified desc). Server time: 2026-01-02T03:04:05.000Z
 * (2026-01-02 12:04 in Asia/Seoul, UTC+09:00).`
 * Without `now`, the server time is left out; `words` name the inputs (the tool's by default).
 */
export function summaryLine(
  result: SearchResult,
  now?: number,
  words: Words = TOOL_WORDS,
): string {
  const { output, request } = result;
  const n = output.matches.length;
  const kind = request.filter.includeDirectories ? "entry" : "file";
  const noun = plural(n, kind);
  const order = request.order === "path_asc"
    ? "path"
    : `${request.filter.timeField} ${request.order === "time_desc" ? "desc" : "asc"}`;
  const parts = [countWords(result, kind, order)];
  const { from, to } = request.filter;
  if (from !== null || to !== null) parts.push(windowWords(from, to));
  if (result.hung === "now") {
    parts.push(
      "The scan hung inside the file system (a network or cloud-synced folder that does not answer?) and was stopped; this page holds what was read before it hung.",
    );
  } else if (result.hung === "before") {
    parts.push(
      "An earlier scan of this root hung inside the file system; if this answer is slow or partial, that is why.",
    );
  }
  if (result.cutForSize) {
    parts.push(
      `The page was cut to ${n} ${noun} to keep the answer short enough for the client; ${words.nextPage} for the rest.`,
    );
  }
  if (output.stats.truncated) {
    parts.push(
      `The scan reached a server limit, so this page covers only part of the tree; ${words.nextPage} to continue` +
        (isWalkOrder(request.order)
          ? "."
          : " (after a truncated scan, time order holds within each page only)."),
    );
  } else if (output.nextCursor !== null && !result.cutForSize) {
    parts.push(`More results: ${words.nextPage}.`);
  }
  if (output.stats.skipped > 0) {
    parts.push(`${output.stats.skipped} entries could not be read and were skipped.`);
  }
  const unknown = output.stats.unknownTime ?? 0;
  if (unknown > 0) {
    parts.push(
      `${unknown} ${
        unknown === 1 ? "entry was" : "entries were"
      } left out because the file system records no created time for them; ${
        words.turnOn("includeUnknownTime")
      } to include them.`,
    );
  }
  if (n === 0 && output.nextCursor === null) parts.push(...emptyAnswerHints(request, words));
  if (now !== undefined) parts.push(serverTime(now));
  return parts.join(" ");
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
  const sorted = `(sorted by ${order})`;
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
