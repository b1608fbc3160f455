/**
 * The facts of a search's summary line as fields of its structured result (contract §4):
 * Claude Code, Codex and VS Code hand a model only `JSON.stringify(structuredContent)`, never
 * the `content` text, so nothing may live in the line alone. The line and the fields come
 * from the same sentences (presentation.ts).
 *
 * @module
 */
import type { SearchOutput, SearchResult } from "./search/search_by_time.ts";
import {
  lineOf,
  lineParts,
  type Note,
  type ServerClock,
  serverClock,
  type WindowWords,
} from "./presentation.ts";
import { emptyAnswerHints } from "./query/hints.ts";
import type { SearchRequest, Sort } from "./query/request.ts";
import { TOOL_WORDS } from "./query/words.ts";

/** What the summary line says, as fields of the structured result. */
export interface ResultWords extends ServerClock {
  /** The summary line itself, as `content[0]` gives it. */
  summary: string;
  /** The order of `matches`. */
  sort: Sort;
  /** The window in the server's zone; `null` without one. */
  window: WindowWords | null;
  /** Every other fact of the summary line, each with its code; the count when not a total. */
  notes: Note[];
}

/** The structured result of a search: the summary and its notes first, then the output. */
export type StructuredResult = SearchOutput & ResultWords;

/** What a search's summary line says, as data and as the line, in the tool's words. */
export function resultWords(result: SearchResult, now: number): ResultWords {
  const clock = serverClock(now);
  const { count, window, notes } = lineParts(result, TOOL_WORDS);
  const summary = lineOf(count.text, window, notes, clock);
  const counted = count.code === null ? [] : [{ code: count.code, message: count.text }];
  return { summary, sort: result.request.order, window, notes: [...counted, ...notes], ...clock };
}

/** `structuredContent` of a search: its output with the words of its summary line. */
export function structuredResult(result: SearchResult, now: number): StructuredResult {
  const { summary, notes, ...rest } = resultWords(result, now);
  return { summary, notes, ...result.output, ...rest };
}

/**
 * The most characters the words may add to a page of `request` (contract §16: the page is
 * cut so that the whole structured result fits): the words of its widest result (every
 * note, every count at its widest) and its empty-answer hints.
 */
export function wordsRoom(request: SearchRequest, now: number): number {
  const most = Number.MAX_SAFE_INTEGER;
  const output: SearchOutput = {
    timeField: request.filter.timeField,
    range: { from: null, to: null },
    matches: [],
    nextCursor: "",
    stats: {
      scannedFiles: most,
      scannedDirectories: most,
      returned: most,
      truncated: true,
      skipped: most,
      elapsedMs: most,
      unknownTime: most,
    },
  };
  const widest: SearchResult = { output, request, cutForSize: true, hung: "now", queryHash: "" };
  const { summary: _, ...words } = resultWords(widest, now);
  const hints = emptyAnswerHints(request, TOOL_WORDS);
  // The summary says each note once more; the page's own size stands in for "cut to N".
  return 2 * (JSON.stringify(words).length + JSON.stringify(hints).length) + 64;
}
