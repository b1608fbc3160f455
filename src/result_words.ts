/**
 * A search's structured result (contract §4, §24a): Claude Code, Codex and VS Code hand a
 * model only `JSON.stringify(structuredContent)`, never the `content` text, so nothing may
 * live in the line alone; and each fact is said once: the summary is the count (and the
 * window), each other fact a note with its code, the server's time and zone one field each,
 * the root answered for at the top. The line people read (`content[0]`) is made from the
 * same sentences (presentation.ts).
 *
 * @module
 */
import type { SearchOutput, SearchResult } from "./search/search_by_time.ts";
import {
  lineOf,
  type Note,
  searchSaid,
  type ServerClock,
  serverClock,
  shaped,
} from "./presentation.ts";
import { emptyAnswerHints } from "./query/hints.ts";
import type { SearchRequest } from "./query/request.ts";
import { TOOL_WORDS } from "./query/words.ts";

/** The structured result of a search: its root, summary and notes, the output, the time. */
export type StructuredResult =
  & { root?: string; summary: string; notes?: Note[] }
  & SearchOutput
  & ServerClock;

/** `structuredContent` of a search, and the line people read. */
export function structuredResult(
  result: SearchResult,
  now: number,
): { structured: StructuredResult; line: string } {
  const said = searchSaid(result, TOOL_WORDS);
  const root = result.roots ? {} : { root: result.request.root.path };
  return { structured: shaped(said, root, result.output, now), line: lineOf(said, now) };
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
  const widest: SearchResult = {
    output,
    request,
    cutForSize: true,
    hung: "now",
    queryHash: "",
    vcs: most,
  };
  const said = searchSaid(widest, TOOL_WORDS);
  const hints = emptyAnswerHints(request, TOOL_WORDS);
  const { serverTime, timeZone } = serverClock(now);
  const words = { ...said, root: request.root.path, serverTime, timeZone };
  // The window and the count at their widest; the page's own size stands in for "cut to N".
  return JSON.stringify(words).length + JSON.stringify(hints).length + 160;
}
