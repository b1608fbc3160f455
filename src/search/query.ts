/**
 * The checked form of a `fs.search_by_time` request, as the search engine sees it.
 *
 * @module
 */
import type { Root } from "../config.ts";

/** Which time a search filters and sorts by. */
export const TIME_FIELDS = ["modified", "created"] as const;
export type TimeField = typeof TIME_FIELDS[number];

/** The result orders (DECISIONS §10). */
export const SORTS = ["time_desc", "time_asc", "path_asc"] as const;
export type Sort = typeof SORTS[number];

/** The key of one item in its sort order: its time (or `null`, unknown) and path. */
export interface SortKey {
  t: number | null;
  p: string;
}

/** A decoded cursor (DECISIONS §10). */
export interface Cursor {
  s: Sort;
  /** The key of the last item returned, if any. */
  key: SortKey | null;
  /** Walk boundary: everything at or before this path was covered. */
  w: string | null;
}

/** A request after every check of DECISIONS §5 steps 1 to 8. */
export interface SearchQuery {
  root: Root;
  /** Root-relative, `/`-separated, normalized; `""` is the root itself. */
  path: string;
  timeField: TimeField;
  /** Epoch ms, inclusive. */
  from: number | null;
  /** Epoch ms, exclusive. */
  to: number | null;
  glob: string | null;
  recursive: boolean;
  /** As requested; `null` when omitted (the server cap applies). */
  maxDepth: number | null;
  includeFiles: boolean;
  includeDirectories: boolean;
  includeUnknownTime: boolean;
  sort: Sort;
  limit: number;
  cursor: Cursor | null;
}
