/**
 * Which entries count: the {@linkcode Filter} of a request compiled into the tests a
 * scan runs on each entry, cheapest first (as fd does): the kind the listing already
 * knows, then the glob on the path, and only then, after one `lstat`, the time window.
 *
 * @module
 */
import { compileGlob, type Filter, isCaseSensitive, type SortKey } from "../query/mod.ts";

/** One matching entry, with times as epoch milliseconds; `time` is its sort time. */
export interface Match extends SortKey {
  isDirectory: boolean;
  sizeBytes: number | null;
  modified: number;
  created: number | null;
}

/**
 * Why a stat'ed entry is not a match: its time is outside the window, its created
 * time is unknown and unknown times are not asked for (contract §7), or it has no
 * modified time at all (counted as skipped).
 */
export type Rejection = "outside" | "unknownTime" | "noTime";

/** The compiled filter. */
export interface EntryFilter {
  /** Nothing can match (no kind asked for, or `from == to`): nothing needs scanning. */
  readonly matchesNothing: boolean;
  /** The tests that need no stat: kind, then glob. */
  wants(path: string, isDirectory: boolean): boolean;
  /** The time test, on the entry's `lstat`: the match, or why it is out. */
  judge(path: string, isDirectory: boolean, info: Deno.FileInfo): Match | Rejection;
}

/**
 * Compiles a filter.
 *
 * @example
 * ```ts
 * const f = compileFilter({ timeField: "modified", from: 0, to: null, glob: "**\/*.md",
 *   includeFiles: true, includeDirectories: false, includeUnknownTime: false });
 * f.wants("notes/a.md", false); // true
 * f.wants("notes", true); // false: folders are not asked for
 * ```
 */
export function compileFilter(filter: Filter): EntryFilter {
  const { timeField, from, to, includeFiles, includeUnknownTime } = filter;
  const { minSizeBytes: minSize, maxSizeBytes: maxSize } = filter;
  // With a size bound, folders never match (their size is null, contract §22).
  const sized = minSize !== null || maxSize !== null;
  const includeDirectories = filter.includeDirectories && !sized;
  const glob = filter.glob === null
    ? null
    : compileGlob(filter.glob, isCaseSensitive(filter.glob, filter.caseSensitive));
  // from == to is an empty window, even for unknown times (contract §7); so is min >= max.
  const matchesNothing = (!includeFiles && !includeDirectories) || (from !== null && from === to) ||
    (minSize !== null && maxSize !== null && minSize >= maxSize);
  return {
    matchesNothing,
    wants: (path, isDirectory) =>
      (isDirectory ? includeDirectories : includeFiles) && (glob === null || glob(path)),
    judge(path, isDirectory, info) {
      // The size, from the same lstat as the times (min inclusive, max exclusive).
      if (
        sized &&
        ((minSize !== null && info.size < minSize) || (maxSize !== null && info.size >= maxSize))
      ) {
        return "outside";
      }
      const modified = info.mtime?.getTime() ?? null;
      if (modified === null) return "noTime";
      const birth = info.birthtime?.getTime() ?? null;
      const created = birth === null || birth === 0 ? null : birth;
      const time = timeField === "modified" ? modified : created;
      const out = (t: number) => (from !== null && t < from) || (to !== null && t >= to);
      if (time === null) {
        if (!includeUnknownTime) return "unknownTime";
      } else if (out(time) && !(filter.alsoCreated && created !== null && !out(created))) {
        return "outside";
      }
      return {
        path,
        time,
        isDirectory,
        sizeBytes: isDirectory ? null : info.size,
        modified,
        created,
      };
    },
  };
}
