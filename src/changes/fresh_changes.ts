/**
 * A fresh instance's changes (contract §24, §24a): what times alone can say, found by a
 * search in path order of every entry modified or created at or after the time (the index
 * answers it when the root is ready, else a walk), each `created` when its created time is
 * at or after it, else `modified`; nothing can be said of removals. Paged like a search:
 * `limit` honoured up to what fits (the page measured as the changes it becomes), with the
 * search's total when it counted one.
 *
 * @module
 */
import { searchByTime } from "../search/mod.ts";
import type { MatchOutput } from "../search/mod.ts";
import { formatTime } from "../query/mod.ts";
import type { ChangesDeps } from "./changes_since.ts";
import type { ChangeOutput } from "./changes_output.ts";

/** A page of a fresh instance's changes, and the search's own cursor for the next. */
export interface FreshPage {
  changes: ChangeOutput[];
  nextCursor: string | null;
  /** Changes of every page, when the search counted its matches. */
  total: number | null;
  /** Cut short of `limit` to fit (contract §16). */
  cutForSize: boolean;
  /** Matches left out inside version-control folders, of the part scanned (§27). */
  vcs: number;
  truncated: boolean;
}

/**
 * The changes times alone can tell since `sinceMs`, a page after `cursor`; `fits` says
 * whether a page of changes (with more to come, or not) may be sent.
 */
export async function freshChanges(
  args: unknown,
  deps: ChangesDeps,
  sinceMs: number,
  cursor: string | undefined,
  fits: (changes: ChangeOutput[], more: boolean) => boolean,
  signal?: AbortSignal,
): Promise<FreshPage> {
  const { since: _since, cursor: _cursor, expand: _expand, ...rest } = args as Record<
    string,
    unknown
  >;
  const search = {
    ...rest,
    timeField: "modified",
    from: formatTime(sinceMs),
    sort: "path_asc",
    ...(cursor === undefined ? {} : { cursor }),
  };
  const asChanges = (matches: MatchOutput[]) => matches.map((m) => changeOf(m, sinceMs));
  const result = await searchByTime(
    search,
    {
      config: deps.config,
      pager: deps.pager,
      clock: deps.clock,
      ...(deps.guard ? { guard: deps.guard } : {}),
      ...(deps.maxResultChars === undefined
        ? {}
        : { pageFits: (output) => fits(asChanges(output.matches), output.nextCursor !== null) }),
      alsoCreated: true,
    },
    signal,
  );
  const { output } = result;
  return {
    changes: asChanges(output.matches),
    nextCursor: output.nextCursor,
    total: output.stats.totalMatches ?? null,
    cutForSize: result.cutForSize,
    vcs: result.vcs,
    truncated: output.stats.truncated,
  };
}

/** A match of the search as a change: created when its created time is since, else modified. */
function changeOf(m: MatchOutput, sinceMs: number): ChangeOutput {
  return {
    path: m.path,
    change: m.createdAt !== null && Date.parse(m.createdAt) >= sinceMs ? "created" : "modified",
    isDirectory: m.isDirectory,
    sizeBytes: m.sizeBytes,
    modifiedAt: m.modifiedAt,
    createdAt: m.createdAt,
  };
}
