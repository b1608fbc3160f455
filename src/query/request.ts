/**
 * One search request, as every stage sees it: the tool's arguments once checked
 * (arguments.ts), the paging module, the scanner, the worker and the walk all take
 * this one type, with the tool's own names, nested by meaning.
 *
 * @module
 */
import type { Limits, Root } from "../config.ts";

/** Which time a search filters and sorts by. */
export const TIME_FIELDS = ["modified", "created"] as const;
export type TimeField = typeof TIME_FIELDS[number];

/** The result orders (contract §10). */
export const SORTS = ["time_desc", "time_asc", "path_asc"] as const;
export type Sort = typeof SORTS[number];

/** Where the walk starts and how deep it goes (contract §8). */
export interface Start {
  /** Root-relative, `/`-separated, normalized; `""` is the root itself. */
  path: string;
  recursive: boolean;
  /** As requested; `null` when omitted (the server's `MAX_DEPTH` applies). */
  maxDepth: number | null;
}

/** Which entries count, as plain data (contract §7, §8, §9); filter.ts tests entries. */
export interface Filter {
  timeField: TimeField;
  /** Epoch ms, inclusive. */
  from: number | null;
  /** Epoch ms, exclusive. */
  to: number | null;
  glob: string | null;
  /**
   * How `glob` and `exclude` treat case (contract §9): `null` is smart case (a pattern with
   * no upper-case letter matches any case, one with an upper-case letter exactly); `true`
   * exactly, `false` any case.
   */
  caseSensitive: boolean | null;
  includeFiles: boolean;
  includeDirectories: boolean;
  includeUnknownTime: boolean;
  /** Globs whose matches are left out: the call's `exclude`, then the server's `EXCLUDE`. */
  exclude: string[];
  /** Leave out what `.gitignore`, `.ignore` and `.git/info/exclude` say, and `.git` (§17). */
  respectIgnoreFiles: boolean;
  /** List what lies inside `.git`, `.hg`, `.svn` and `.jj` folders too (§27). */
  includeVcs: boolean;
  /** Files of at least this many bytes only; folders never match then (§22). */
  minSizeBytes: number | null;
  /** Files of fewer than this many bytes only; folders never match then (§22). */
  maxSizeBytes: number | null;
  /**
   * With `timeField` "modified": an entry whose created time is in the window matches too
   * (a fresh instance of `fs.changes_since`, contract §24). Never a tool argument.
   */
  alsoCreated?: boolean;
}

/**
 * Every file, by modified time, with no window and nothing left out (spread it, giving
 * `exclude` an array of its own).
 */
export const EVERY_FILE: Readonly<Filter> = Object.freeze({
  timeField: "modified",
  from: null,
  to: null,
  glob: null,
  caseSensitive: null,
  includeFiles: true,
  includeDirectories: false,
  includeUnknownTime: false,
  exclude: [],
  respectIgnoreFiles: false,
  includeVcs: true,
  minSizeBytes: null,
  maxSizeBytes: null,
});

/**
 * The tool arguments each part of a query is made from: what a cursor is bound to
 * (contract §10, §23; the query hash covers exactly these parts). A new field of `Start`
 * or `Filter` does not compile until it is named here, so messages that list them cannot
 * leave it out.
 */
export const QUERY_ARGUMENTS: {
  readonly root: readonly string[];
  readonly start: Readonly<Record<keyof Start, readonly string[]>>;
  readonly filter: Readonly<Record<keyof Filter, readonly string[]>>;
} = {
  root: ["root"],
  start: { path: ["path"], recursive: ["recursive"], maxDepth: ["maxDepth"] },
  filter: {
    timeField: ["timeField"],
    from: ["from", "within", "period"],
    to: ["to", "period"],
    glob: ["glob"],
    caseSensitive: ["caseSensitive"],
    includeFiles: ["includeFiles"],
    includeDirectories: ["includeDirectories"],
    includeUnknownTime: ["includeUnknownTime"],
    exclude: ["exclude"],
    respectIgnoreFiles: ["respectIgnoreFiles"],
    includeVcs: ["includeVcs"],
    minSizeBytes: ["minSizeBytes"],
    maxSizeBytes: ["maxSizeBytes"],
    alsoCreated: [], // fs.changes_since's `since`, never a search argument
  },
};

/** The tool arguments a query is made from, each once, in `QUERY_ARGUMENTS`' order. */
export function queryArguments(): string[] {
  const { root, start, filter } = QUERY_ARGUMENTS;
  return [...new Set([...root, ...Object.values(start).flat(), ...Object.values(filter).flat()])];
}

/** An item's place in its order: its time in the filter's field (`null`: unknown) and path. */
export interface SortKey {
  time: number | null;
  path: string;
}

/** Where a page starts (a decoded cursor, contract §10, §11). */
export interface Position {
  /** Only items strictly after this key in the request's order; `null` on a first page. */
  key: SortKey | null;
  /** The walk resumes strictly after this path; `null` when not truncated before. */
  boundary: string | null;
  /**
   * When the paging sequence's first page was made (epoch ms): a snapshot serves only
   * its own sequence, so no page mixes data older than the sequence's first (§18).
   */
  chain?: number;
  /**
   * How many matches the earlier pages of this sequence gave (contract §26): a last page
   * whose own scan could not count the total knows it then.
   */
  counted?: number;
}

/**
 * A checked request (contract §5 steps 1 to 8 passed): the query, and nothing of how it
 * runs (how a scan is split, what it keeps for later pages: `ScanPlan` in walk/).
 */
export interface SearchRequest {
  root: Root;
  start: Start;
  filter: Filter;
  order: Sort;
  limit: number;
  after: Position | null;
  /** The server's limits (contract §14). */
  limits: Limits;
}

/**
 * How deep a walk from the start goes (contract §8): `maxDepth`, or the server's
 * `MAX_DEPTH` when it is omitted; 1 (the start's own entries) when not recursive.
 */
export function depthLimit(request: Pick<SearchRequest, "start" | "limits">): number {
  const { start, limits } = request;
  return start.recursive ? start.maxDepth ?? limits.maxDepth : 1;
}

/**
 * The request with `spentMs` less of its scan time, at least 1 ms: a call's time counts
 * from when it was made, whatever it waited for (contract §19).
 */
export function withTimeSpent(request: SearchRequest, spentMs: number): SearchRequest {
  if (spentMs <= 0) return request;
  const scanTimeoutMs = Math.max(1, request.limits.scanTimeoutMs - spentMs);
  return { ...request, limits: { ...request.limits, scanTimeoutMs } };
}
