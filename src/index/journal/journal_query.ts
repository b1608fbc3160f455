/**
 * A `fs.changes_since` question put to a root's journal, and its answer (contract §24):
 * the net changes between two positions, under the call's `path`, kept by its kinds, glob,
 * excludes and ignore files as a walk keeps entries, in path order, a page after a path.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import type { Filter } from "../../query/mod.ts";
import { compileExclusion, compileFilter } from "../../walk/mod.ts";
import { DIR } from "../store/mod.ts";
import type { Journal, NetChange } from "./journal.ts";

/** What a changes call asks a root's journal. */
export interface JournalQuery {
  /** From this position, or from the state at this time (epoch ms). */
  since: { position: number } | { ms: number };
  /** Up to this position (a later page's clock); `null`: now. */
  until: number | null;
  /** Root-relative folder or file the changes lie at or under ("" for the whole root). */
  startPath: string;
  filter: Filter;
  /** Changes after this path only (the page before ended there). */
  after: string | null;
  limit: number;
}

/** One change as a call gives it (times in epoch ms). */
export interface ChangeRecord {
  path: string;
  change: NetChange["change"];
  isDirectory: boolean;
  sizeBytes: number | null;
  modified: number | null;
  created: number | null;
  previousPath?: string;
}

/** The journal's answer: a page of changes, or why it cannot say (a fresh instance). */
export type JournalAnswer =
  | { fresh: string }
  | {
    /** The positions the changes lie between, and the time of the first. */
    since: number;
    sinceMs: number;
    until: number;
    changes: ChangeRecord[];
    /** Changes of the whole query, every page, and of each kind. */
    total: number;
    counts: Record<NetChange["change"], number>;
    /** A later page holds more. */
    more: boolean;
  };

/** Answers `query` from `journal`; ignore files are read through `fs`. */
export function askJournal(
  journal: Journal,
  query: JournalQuery,
  fs: FsPort,
  rootReal: string,
): JournalAnswer {
  const until = query.until ?? journal.position;
  const since = "position" in query.since
    ? query.since.position
    : journal.positionAt(query.since.ms);
  if (since === null || since < journal.start || until < journal.start) {
    return { fresh: "the journal does not reach back that far" };
  }
  if (since > until || until > journal.position) {
    return { fresh: "the clock is not one of this index's" };
  }
  const sinceMs = "ms" in query.since ? query.since.ms : journal.timeOf(since);
  const filter = compileFilter({ ...query.filter, from: null, to: null });
  const exclusion = compileExclusion(query.filter, fs, rootReal);
  const start = query.startPath;
  const under = (path: string) => start === "" || path === start || path.startsWith(start + "/");
  const kept = journal.between(since, until).map(record).filter((c) =>
    under(c.path) && filter.wants(c.path, c.isDirectory) &&
    !exclusion?.excludesStart(c.path, c.isDirectory)
  );
  kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const from = query.after === null ? 0 : kept.findIndex((c) => c.path > query.after!);
  const changes = from < 0 ? [] : kept.slice(from, from + query.limit);
  const counts = { created: 0, modified: 0, removed: 0, renamed: 0 };
  for (const c of kept) counts[c.change]++;
  const more = from >= 0 && from + query.limit < kept.length;
  return { since, sinceMs, until, changes, total: kept.length, counts, more };
}

/** A net change as a call gives it. */
function record(net: NetChange): ChangeRecord {
  const image = net.image === "unknown" ? null : net.image;
  const isDirectory = image !== null && (image.kind & DIR) !== 0;
  const gone = net.change === "removed";
  return {
    path: net.path,
    change: net.change,
    isDirectory,
    sizeBytes: gone || image === null || isDirectory ? null : image.size,
    modified: gone || image === null || Number.isNaN(image.mtime) ? null : image.mtime,
    created: gone || image === null || Number.isNaN(image.birth) ? null : image.birth,
    ...(net.previousPath === undefined ? {} : { previousPath: net.previousPath }),
  };
}
