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
  const counts = { created: 0, modified: 0, removed: 0, renamed: 0 };
  const later: NetChange[] = [];
  let total = 0;
  for (const c of journal.between(since, until)) {
    const isDirectory = c.image !== null && c.image !== "unknown" && (c.image.kind & DIR) !== 0;
    if (!under(c.path) || !filter.wants(c.path, isDirectory)) continue;
    if (exclusion?.excludesStart(c.path, isDirectory)) continue;
    total++;
    counts[c.change]++;
    if (query.after === null || c.path > query.after) later.push(c);
  }
  const changes = firstByPath(later, query.limit).map(record);
  const more = later.length > query.limit;
  return { since, sinceMs, until, changes, total, counts, more };
}

/**
 * The first `k` changes by path, in path order: sorted whole when there are few, else
 * through a bounded heap (a page of 100 from 100,000 changes costs no sort of them all).
 */
function firstByPath(changes: NetChange[], k: number): NetChange[] {
  const byPath = (a: NetChange, b: NetChange) => (a.path < b.path ? -1 : 1);
  if (changes.length <= 8 * k) return changes.sort(byPath).slice(0, k);
  const heap: NetChange[] = []; // the k smallest so far, the largest at the top
  const above = (i: number, j: number) => heap[i]!.path > heap[j]!.path;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  for (const c of changes) {
    if (heap.length < k) {
      heap.push(c);
      for (let i = heap.length - 1; i > 0 && above(i, (i - 1) >> 1); i = (i - 1) >> 1) {
        swap(i, (i - 1) >> 1);
      }
    } else if (c.path < heap[0]!.path) {
      heap[0] = c;
      for (let i = 0;;) {
        const l = 2 * i + 1;
        let top = i;
        if (l < k && above(l, top)) top = l;
        if (l + 1 < k && above(l + 1, top)) top = l + 1;
        if (top === i) break;
        swap(i, top);
        i = top;
      }
    }
  }
  return heap.sort(byPath);
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
