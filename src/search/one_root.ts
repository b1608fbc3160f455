/**
 * The `fs.search_by_time` use case for one root: check the arguments, get the page, and
 * shape the result as the outputSchema says.
 *
 * @module
 */
import type { Config } from "../config.ts";
import type { Clock } from "../ports/mod.ts";
import type { Guard } from "../security/mod.ts";
import { formatTime, type SearchRequest, type TimeField } from "../query/mod.ts";
import { encodeCursor } from "../query/calls/mod.ts";
import { parseArguments } from "../query/arguments/mod.ts";
import type { Match, ScanProgress } from "../walk/mod.ts";
import type { Page, Pager } from "../paging/mod.ts";

/** One entry of `matches` in the outputSchema. */
export interface MatchOutput {
  path: string;
  isDirectory: boolean;
  sizeBytes: number | null;
  modifiedAt: string;
  createdAt: string | null;
  /** With `root: "*"`: the root it was found under, as `fs.list_roots` names it (§26). */
  root?: string;
}

/** `structuredContent` of a successful call (contract §4, §11). */
export interface SearchOutput {
  timeField: TimeField;
  range: { from: string | null; to: string | null };
  matches: MatchOutput[];
  nextCursor: string | null;
  /** The root's clock as of this answer (contract §24), given by the server. */
  clock?: string;
  /** With `root: "*"`: each root's clock. */
  clocks?: { root: string; clock: string }[];
  stats: {
    scannedFiles: number;
    scannedDirectories: number;
    returned: number;
    truncated: boolean;
    /** Entries skipped (§8); absent when none (contract §24a: each fact once, and short). */
    skipped?: number;
    elapsedMs: number;
    /** With timeField `created`: entries left out because they have no created time. */
    unknownTime?: number;
    /** Matches of the whole query, when this page's scan saw all of it. */
    totalMatches?: number;
    /**
     * When `totalMatches` is not known: how many matches the query surely has (this page's,
     * and one more when a later page is sure to hold more). A lower bound, never a total.
     */
    matchesAtLeast?: number;
    /** With an exclusion in effect: entries left out (a folder counts once). */
    excluded?: number;
  };
}

/** A successful search: the output plus what the summary line needs. */
export interface SearchResult {
  output: SearchOutput;
  request: SearchRequest;
  /** The page holds fewer than `limit` matches to stay within `maxResultChars`. */
  cutForSize: boolean;
  /** This scan, or an earlier one of the same root, hung in the file system. */
  hung: "now" | "before" | null;
  /** The query's hash, which its cursors carry (contract §10). */
  queryHash: string;
  /** With `root: "*"`: every root it searched (else the request's root alone). */
  roots?: string[];
  /** Matches left out inside version-control folders (contract §27), of the part scanned. */
  vcs: number;
  /**
   * Why this call was walked, when it was (one root); the `IndexBuilding` note says it when
   * the root's index is still being built or its service still being reached (§28a).
   */
  walkedWhy?: string;
}

/** What a search needs. */
export interface SearchDeps {
  config: Config;
  pager: Pager;
  clock: Clock;
  /** Layer 1's lexical checks. Default: the strict guard. */
  guard?: Guard;
  /**
   * The most characters the output's JSON may have; pages are cut to fit (contract §16).
   * Default: no bound (the CLI prints what was asked).
   */
  maxResultChars?: number;
  /**
   * The most characters the caller adds to the output's JSON for a request (the words of
   * its summary line, contract §4), kept free within `maxResultChars`. Default: none.
   */
  wordsRoom?: (request: SearchRequest) => number;
  /** Also match entries created in the window (contract §24: a fresh instance). */
  alsoCreated?: boolean;
  /**
   * Whether a page's output (its counts at their widest) is small enough to send, when the
   * caller sends something else made from it (a fresh instance's changes). Default: its
   * JSON within `maxResultChars`, less `wordsRoom`.
   */
  pageFits?: (output: SearchOutput) => boolean;
}

/**
 * Runs one search in one root (`args.root` a root's name, or none: the default root).
 *
 * @throws {ToolError} for every tool execution error of contract §5 and §11.
 */
export async function searchOneRoot(
  args: unknown,
  deps: SearchDeps,
  signal?: AbortSignal,
  onProgress?: (progress: ScanProgress) => void,
  /** Told who answered (contract §18: the index, a walk and why, a snapshot). */
  onAnswered?: (by: string) => void,
): Promise<SearchResult> {
  const started = deps.clock.now();
  const { request, queryHash, now } = parseArguments(
    args,
    deps.config,
    deps.guard,
    started,
    deps.alsoCreated,
  );
  /** `elapsed`: the time to say (by default the time taken so far). */
  const render = (page: Page, elapsed = Math.max(0, deps.clock.now() - started)): SearchOutput => {
    const { filter } = request;
    return {
      timeField: filter.timeField,
      range: {
        from: filter.from === null ? null : formatTime(filter.from),
        to: filter.to === null ? null : formatTime(filter.to),
      },
      matches: page.matches.map(toOutput),
      nextCursor: page.next === null ? null : encodeCursor(request.order, page.next, queryHash),
      stats: {
        scannedFiles: page.stats.scannedFiles,
        scannedDirectories: page.stats.scannedDirectories,
        returned: page.matches.length,
        truncated: page.truncated,
        ...(page.stats.skipped > 0 ? { skipped: page.stats.skipped } : {}),
        elapsedMs: elapsed,
        ...(filter.timeField === "created" ? { unknownTime: page.stats.unknownTime } : {}),
        ...(page.totalMatches === null
          ? {
            matchesAtLeast: page.matches.length + (page.next !== null && !page.truncated ? 1 : 0),
          }
          : { totalMatches: page.totalMatches }),
        ...(filter.exclude.length > 0 || filter.respectIgnoreFiles || page.stats.vcs > 0
          ? { excluded: page.stats.excluded + page.stats.vcs }
          : {}),
      },
    };
  };
  const max = deps.maxResultChars;
  const room = 16 + (deps.wordsRoom?.(request) ?? 0);
  // Measured with every count and the time taken at its widest: what fits depends on the
  // matches alone, not on how long the scan took on a busy machine.
  const measured = (page: Page) => render(widest(page), Number.MAX_SAFE_INTEGER);
  const fits = deps.pageFits
    ? (page: Page) => deps.pageFits!(measured(page))
    : max === undefined
    ? undefined
    : (page: Page) => JSON.stringify(measured(page)).length <= max - room;
  const page = await deps.pager.page(request, queryHash, {
    sequenceStart: now,
    ...(signal ? { signal } : {}),
    ...(onProgress ? { onProgress } : {}),
    ...(fits ? { fits } : {}),
    ...(onAnswered ? { onAnswered } : {}),
  });
  return {
    output: render(page),
    request,
    cutForSize: page.cutForSize,
    hung: page.hung,
    queryHash,
    vcs: page.stats.vcs,
  };
}

/**
 * A page with its counts at their widest, to measure it by: so that what fits depends on
 * its matches alone, not on how much was examined to find them (an indexed answer examines
 * less, and may not count the matches: contract §18).
 */
function widest(page: Page): Page {
  const most = Number.MAX_SAFE_INTEGER;
  const stats = { scannedFiles: most, scannedDirectories: most, skipped: most, unknownTime: most };
  return {
    ...page,
    stats: { ...page.stats, ...stats, excluded: most, vcs: 1 },
    totalMatches: most,
  };
}

function toOutput(match: Match): MatchOutput {
  return {
    path: match.path,
    isDirectory: match.isDirectory,
    sizeBytes: match.sizeBytes,
    modifiedAt: formatTime(match.modified),
    createdAt: match.created === null ? null : formatTime(match.created),
  };
}
