/**
 * A fresh instance's changes (contract §24): what times alone can say, found by a search
 * in path order of every entry modified or created at or after the time (the index
 * answers it when the root is ready, else a walk), each `created` when its created time is
 * at or after it, else `modified`; nothing can be said of removals.
 *
 * @module
 */
import { searchByTime } from "../search/mod.ts";
import { formatTime } from "../query/mod.ts";
import type { ChangeOutput, ChangesDeps } from "./changes_since.ts";

/** A page of a fresh instance's changes, and the search's own cursor for the next. */
export interface FreshPage {
  changes: ChangeOutput[];
  nextCursor: string | null;
  scannedFiles: number;
  scannedDirectories: number;
  truncated: boolean;
}

/** The changes times alone can tell since `sinceMs`, a page after `cursor`. */
export async function freshChanges(
  args: unknown,
  deps: ChangesDeps,
  sinceMs: number,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<FreshPage> {
  const { since: _since, cursor: _cursor, ...rest } = args as Record<string, unknown>;
  const search = {
    ...rest,
    timeField: "modified",
    from: formatTime(sinceMs),
    sort: "path_asc",
    ...(cursor === undefined ? {} : { cursor }),
  };
  const room = 64 + (deps.wordsRoom ?? 0); // each change says its kind: a few more characters
  const result = await searchByTime(
    search,
    {
      config: deps.config,
      pager: deps.pager,
      clock: deps.clock,
      ...(deps.guard ? { guard: deps.guard } : {}),
      ...(deps.maxResultChars === undefined ? {} : { maxResultChars: deps.maxResultChars }),
      wordsRoom: (request) => room + request.limit * 22,
      alsoCreated: true,
    },
    signal,
  );
  const { output } = result;
  return {
    changes: output.matches.map((m) => ({
      path: m.path,
      change: m.createdAt !== null && Date.parse(m.createdAt) >= sinceMs ? "created" : "modified",
      isDirectory: m.isDirectory,
      sizeBytes: m.sizeBytes,
      modifiedAt: m.modifiedAt,
      createdAt: m.createdAt,
    })),
    nextCursor: output.nextCursor,
    scannedFiles: output.stats.scannedFiles,
    scannedDirectories: output.stats.scannedDirectories,
    truncated: output.stats.truncated,
  };
}
