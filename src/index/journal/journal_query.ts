/**
 * A `fs.changes_since` question put to a root's journal, and its answer (contract §24,
 * §24a, §27): the net changes between two positions, under the call's `path`, kept by its
 * kinds, glob, excludes and ignore files as a walk keeps entries, what lies inside
 * version-control folders left out and counted, a folder moved or removed as a whole given
 * as one entry (unless `expand`), in path order, a page after a path. The changes are read
 * one at a time and only the page's are kept.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import { comparePaths, type Filter } from "../../query/mod.ts";
import { compileExclusion, compileFilter, insideVcs, TopK } from "../../walk/mod.ts";
import { DIR } from "../store/mod.ts";
import type { Journal, NetChange, NetView } from "./journal.ts";
import type { NodeChange } from "./net_changes.ts";

/** What a changes call asks a root's journal. */
export interface JournalQuery {
  /** From this position, or from the state at this time (epoch ms). */
  since: { position: number } | { ms: number };
  /** Up to this position (a later page's clock); `null`: now. */
  until: number | null;
  /** Root-relative folder or file the changes lie at or under ("" for the whole root). */
  startPath: string;
  filter: Filter;
  /** Each entry under a folder moved or removed as a whole, not the folder alone (§24a). */
  expand: boolean;
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
  /** A folder moved or removed as a whole: the changes below it it stands for. */
  entries?: number;
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
    /** Changes left out inside version-control folders (contract §27). */
    vcs: number;
    /**
     * Changes listed one by one that lie in a folder moved or removed as a whole, which
     * would be one entry with folders asked for (a files-only answer lists no folder).
     */
    inWholeFolders: number;
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
  return journal.between(since, until, (view) => ({
    since,
    sinceMs,
    until,
    ...answer(view, query, fs, rootReal),
  }));
}

function answer(view: NetView, query: JournalQuery, fs: FsPort, rootReal: string) {
  const { filter: given, startPath: start, expand } = query;
  const filter = compileFilter({ ...given, from: null, to: null });
  const folders = compileFilter({ ...given, from: null, to: null, includeDirectories: true });
  const exclusion = compileExclusion(given, fs, rootReal);
  const isDirectory = (c: NetChange) => c.kind !== null && (c.kind & DIR) !== 0;
  const under = (path: string) => start === "" || path === start || path.startsWith(start + "/");
  /** Whether the query lists change `c` (with `kinds`: its kinds, else folders too). */
  const lists = (c: NetChange, kinds = filter) =>
    under(c.path) && kinds.wants(c.path, isDirectory(c)) &&
    !exclusion?.excludesStart(c.path, isDirectory(c)) &&
    (given.includeVcs || !insideVcs(c.path, start));
  const listed = new Map<number, boolean>(); // folders, as asked about
  const listsFolder = (c: NodeChange) => {
    let yes = listed.get(c.node);
    if (yes === undefined) listed.set(c.node, yes = lists(c));
    return yes;
  };
  const counts = { created: 0, modified: 0, removed: 0, renamed: 0 };
  const page = new TopK<NodeChange>(query.limit + 1, (a, b) => comparePaths(a.path, b.path));
  const folded = new Map<number, number>();
  let total = 0;
  let vcs = 0;
  let inWholeFolders = 0;
  for (const c of view.changes()) {
    if (!under(c.path) || !filter.wants(c.path, isDirectory(c))) continue;
    if (exclusion?.excludesStart(c.path, isDirectory(c))) continue;
    if (!given.includeVcs && insideVcs(c.path, start)) {
      vcs++;
      continue;
    }
    if (!expand) {
      const top = wholeFolder(view, c, listsFolder);
      if (top !== null) {
        folded.set(top, (folded.get(top) ?? 0) + 1);
        continue;
      }
      if (!given.includeDirectories && wholeFolder(view, c, (f) => lists(f, folders)) !== null) {
        inWholeFolders++;
      }
    }
    total++;
    counts[c.change]++;
    if (query.after === null || c.path > query.after) page.add(c);
  }
  const first = page.sorted();
  const more = first.length > query.limit;
  const changes = first.slice(0, query.limit).map((c) => record(c, folded.get(c.node)));
  return { changes, total, counts, vcs, inWholeFolders, more };
}

/**
 * The topmost folder above `c` that was moved or removed as a whole with it and that the
 * query lists, or `null`: each folder between moved (or removed) too, the same way, and
 * `c`, if moved, as it was before the move (an entry changed after it is listed itself).
 */
function wholeFolder(
  view: NetView,
  c: NodeChange,
  lists: (folder: NodeChange) => boolean,
): number | null {
  if (c.change !== "removed" && !(c.change === "renamed" && c.unchanged)) return null;
  let top: number | null = null;
  for (let p = view.parentOf(c.node); p > 0; p = view.parentOf(p)) {
    const f = view.changeOf(p);
    if (f === null || f.change !== c.change || f.kind === null || (f.kind & DIR) === 0) break;
    if (
      c.change === "renamed" &&
      f.previousPath + c.path.slice(f.path.length) !== c.previousPath
    ) break;
    if (lists(f)) top = p;
  }
  return top;
}

/** A net change as a call gives it. */
function record(net: NetChange, entries: number | undefined): ChangeRecord {
  // A removed entry's image is the last the journal or the index had of it (§24a).
  const image = net.image === "unknown" ? null : net.image;
  const isDirectory = net.kind !== null && (net.kind & DIR) !== 0;
  return {
    path: net.path,
    change: net.change,
    isDirectory,
    sizeBytes: image === null || isDirectory ? null : image.size,
    modified: image === null || Number.isNaN(image.mtime) ? null : image.mtime,
    created: image === null || Number.isNaN(image.birth) ? null : image.birth,
    ...(net.previousPath === undefined ? {} : { previousPath: net.previousPath }),
    ...(entries === undefined ? {} : { entries }),
  };
}
