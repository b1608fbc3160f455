/**
 * What an indexed answer may leave unvisited (contract §18: the index may answer any way
 * it likes, as long as the answer is a fresh walk's): a scan with a time window can only
 * match entries inside it, so the entries of held listings whose known time lies outside
 * it need not be handed to the walk at all, nor the folders whose times, their own and
 * all below them (subtree_times.ts), lie outside it. Any entry whose time is not known is
 * handed out, and any folder with something unknown below it.
 *
 * A scan's stats count what it examined, so they must not be used to decide anything the
 * walk decides by counting: with excludes or ignore files the count of what was left out
 * (`stats.excluded`) would change, so such scans are not focused; and a focused scan that
 * could have reached `MAX_FILES_SCANNED` or `MAX_DIRECTORIES_SCANNED` unfocused is made
 * again unfocused ({@linkcode mayDiffer}).
 *
 * A time-ordered page needs only its `limit + 1` first matches after the cursor, so the
 * window entries are handed out from (the cut, a copy of the focus) narrows further: to
 * what comes after the cursor's key ({@linkcode narrowToCursor}), and, once the page holds
 * `limit + 1` matches, to what could still beat the last of them ({@linkcode narrowToWorst}).
 * So a newest-100 question over a window of 10,000 matches examines a few hundred of them.
 * What the cut alone leaves out inside the window was not examined (`Dropped.beyond`): such an
 * answer gives no `totalMatches` (§11, §18: given when known), unless each of those was counted
 * from memory as it was left out (exact_drops.ts). A scan that keeps every match
 * for later pages is narrowed to its cursor only (index_loop.ts).
 *
 * @module
 */
import {
  depthLimit,
  isWalkOrder,
  type SearchRequest,
  type Sort,
  type SortKey,
} from "../../query/mod.ts";
import { compileFilter, type ScanOutcome } from "../../walk/mod.ts";
import { boundBelow, type EntryColumns, type FolderTree } from "../store/mod.ts";
import { hostRules } from "../../security/mod.ts";
import type { OrderWindow, PageAsk, WindowCount } from "./order_window.ts";

/** The window a focused scan matches in: `[from, to)` of one time field, epoch ms. */
export interface Focus {
  created: boolean;
  from: number;
  to: number;
  /** Only files can match (no folder is asked for): a folder's own time does not count. */
  filesOnly: boolean;
  /** Set when what the cut leaves out inside the window can be counted (exact_drops.ts). */
  exact?: ExactCount;
  /**
   * Set when a time-ordered page can only come from these folder records (1), found in the
   * time order (time_order.ts `pageFolders`): the others are left out whole, as the cut does.
   */
  only?: Uint8Array;
}

/** What a focused scan left out that an unfocused walk would have counted. */
export interface Dropped {
  /** Files (non-folder entries). */
  files: number;
  /** Listings. */
  listings: number;
  /**
   * Entries and folders left out by the cut alone: inside the window, they may have been
   * matches (before the cursor's key, or past the page), so the matches were not counted.
   */
  beyond: number;
  /** Of `beyond`, those counted from the index alone (exact_drops.ts): all, or the count is not known. */
  exact: number;
  /** The matches they hold, and those inside version-control folders (left out, counted: §27). */
  matches: number;
  vcs: number;
  /**
   * What reading those again would cost at most: each file once, each folder with every
   * file and listing below it (what counting them takes, contract §26).
   */
  reread: number;
}

/**
 * The focus of a request, or `null` when it has neither a window nor a time order, or its
 * stats need every entry.
 */
export function focusOf(request: SearchRequest): Focus | null {
  const { from, to, timeField, exclude, respectIgnoreFiles } = request.filter;
  if (from === null && to === null && isWalkOrder(request.order)) return null;
  // Also created in the window: another time than the focus's could bring an entry in.
  if (exclude.length > 0 || respectIgnoreFiles || request.filter.alsoCreated) return null;
  const { includeDirectories, minSizeBytes, maxSizeBytes } = request.filter;
  // With a size bound, folders never match either (contract §22).
  const filesOnly = !includeDirectories || minSizeBytes !== null || maxSizeBytes !== null;
  const exact = exactOf(request);
  return {
    created: timeField === "created",
    from: from ?? -Infinity,
    to: to ?? Infinity,
    filesOnly,
    ...(exact ? { exact } : {}),
  };
}

/** How the walk of an exactly counted request reads: from where, how deep, what it leaves out. */
export interface ExactCount {
  /** The start folder's absolute path (as the walk builds its listings' paths). */
  startAbs: string;
  /** Listings read at most this deep (the start's own is 1). */
  maxDepth: number;
  /** Whether the walk visits a start below the root itself (a recursive one: scan.ts). */
  visitsStart: boolean;
  /** Whether entries inside version-control folders below the start are left out (§27). */
  vcsLeftOut: boolean;
  /** Whether files match (not on a folders-only question: then a file left out is no match). */
  files: boolean;
  /** Set when the window's matches are counted from the root's time order (time_order.ts). */
  counted?: boolean;
}

/**
 * How the walk of `request` reads, when every entry inside its window is a match (then a
 * drop inside the window can be counted); `undefined` otherwise.
 */
export function exactOf(request: SearchRequest): ExactCount | undefined {
  const { filter } = request;
  if (filter.glob !== null || filter.minSizeBytes !== null || filter.maxSizeBytes !== null) return;
  if (!inOrder(filter)) return;
  return {
    files: filter.includeFiles,
    startAbs: startAbsOf(request),
    maxDepth: depthLimit(request),
    visitsStart: visitsStart(request),
    vcsLeftOut: !filter.includeVcs,
  };
}

/**
 * Whether the matches of `filter` are all in the root's time orders (time_order.ts): of one
 * time field, of files, folders or both. Not when also created in the window (another time
 * could bring an entry in), nor with unknown created times asked for: such an entry matches
 * every created window and comes last (contract §7, §10), and the order holds none.
 */
function inOrder(filter: SearchRequest["filter"]): boolean {
  if (filter.alsoCreated || (!filter.includeFiles && !filter.includeDirectories)) return false;
  return !(filter.timeField === "created" && filter.includeUnknownTime);
}

/** Whether the walk of `request` visits its start below the root itself (scan.ts). */
function visitsStart({ start }: SearchRequest): boolean {
  return start.recursive && start.path !== "";
}

/** The absolute path of the folder the walk of `request` starts from, as it builds it. */
function startAbsOf({ root, start }: SearchRequest): string {
  const sep = hostRules.sep;
  return start.path === "" ? root.realPath : root.realPath + sep + start.path.split("/").join(sep);
}

/**
 * Whether entry `e`'s own time is known and outside `focus` (a created time must be known
 * too: an unknown one is counted by the filter).
 */
export function outside(focus: Focus, cols: EntryColumns, e: number): boolean {
  const time = focus.created ? cols.birth[e]! : cols.mtime[e]!;
  if (!(time < focus.from || time >= focus.to)) return false; // inside, or not stat'ed (NaN)
  // Not stat'ed since its last change (its birth time is then stale): not known, so not
  // outside. (No created time is an unknown time: not outside either, above.)
  return !(focus.created && Number.isNaN(cols.mtime[e]!));
}

/**
 * Whether every time at and below folder record `folder` is known and outside `focus` (a
 * files-only focus: every file's).
 */
export function allOutside(focus: Focus, tree: FolderTree, folder: number): boolean {
  boundBelow(tree, folder);
  const rec = tree.folders;
  const files = focus.filesOnly;
  const lo = focus.created
    ? (files ? rec.fileBirthLo : rec.birthLo)[folder]!
    : (files ? rec.fileMtimeLo : rec.mtimeLo)[folder]!;
  const hi = focus.created
    ? (files ? rec.fileBirthHi : rec.birthHi)[folder]!
    : (files ? rec.fileMtimeHi : rec.mtimeHi)[folder]!;
  return hi < focus.from || lo >= focus.to; // unknown (NaN): neither
}

/**
 * Narrows `cut` (the window, or a narrower one) to what comes after the cursor's key in
 * the request's time order: what comes at or before it is not on the page.
 */
export function narrowToCursor(cut: Focus, request: SearchRequest): void {
  const key = request.after?.key;
  if (!key || isWalkOrder(request.order)) return;
  if (key.time === null) keepFrom(cut, Infinity); // unknown times come last: every known one before
  else if (request.order === "time_desc") keepUntil(cut, key.time);
  else keepFrom(cut, key.time);
}

/**
 * Narrows `cut` to what could still beat `worst`, the last of a full page's matches in the
 * time order `order` (a tie on time may: the path decides).
 */
export function narrowToWorst(cut: Focus, order: Sort, worst: SortKey): void {
  if (worst.time === null) return; // unknown times come last: every known one may beat it
  if (order === "time_desc") keepFrom(cut, worst.time);
  else keepUntil(cut, worst.time);
}

function keepFrom(cut: Focus, time: number): void {
  cut.from = Math.max(cut.from, time);
}

/** Keeps times up to `time`; times are whole milliseconds (a fraction would only keep more). */
function keepUntil(cut: Focus, time: number): void {
  cut.to = Math.min(cut.to, time + 1);
}

/**
 * An outcome with the window's matches counted from the time order (time_order.ts), as a
 * walk counts them.
 */
export function withCount(outcome: ScanOutcome, count: WindowCount): ScanOutcome {
  const { collected, entries } = outcome;
  const total = collected.total === null ? null : count.matches;
  return {
    ...outcome,
    collected: { ...collected, total },
    entries: { ...entries, vcs: count.vcs },
  };
}

/** An outcome with the matches its cut left out counted in, as a walk counts them. */
export function withDrops(outcome: ScanOutcome, dropped: Dropped): ScanOutcome {
  const { collected, entries } = outcome;
  const total = collected.total === null ? null : collected.total + dropped.matches;
  return {
    ...outcome,
    collected: { ...collected, total },
    entries: { ...entries, vcs: entries.vcs + dropped.vcs },
  };
}

/** An outcome whose scan left out matches it did not need: their count is not known. */
export function uncounted(outcome: ScanOutcome): ScanOutcome {
  return { ...outcome, collected: { ...outcome.collected, total: null } };
}

/**
 * The window of `focus` as the time order counts it (time_order.ts `windowCount`): a
 * window (of files, folders, or both) counted exactly ({@linkcode exactOf}) of a walk
 * from the root or a folder below it (time_order.ts says whether it can count that one);
 * `null` for any other.
 */
export function countWindow(focus: Focus | null): OrderWindow | null {
  const exact = focus?.exact;
  if (!exact) return null;
  const { from, to, created } = focus;
  const { files, startAbs, visitsStart, maxDepth, vcsLeftOut } = exact;
  const folders = !focus.filesOnly;
  return { created, files, folders, startAbs, visitsStart, from, to, maxDepth, vcsLeftOut };
}

/**
 * What the time order needs to find the folders a time-ordered page of files, folders or
 * both (as asked for) from the root or a folder below it can come from (time_order.ts
 * `pageFolders`): the window narrowed to the cursor, how deep the walk reads, whether it
 * leaves version-control folders out, and the page ({@linkcode PageAsk}: with a glob or a
 * size bound, the filter an entry must pass, on its held stat). `null` for any other request.
 */
export function pageOf(
  focus: Focus,
  request: SearchRequest,
): { window: OrderWindow; page: PageAsk } | null {
  const { filter, order } = request;
  if (isWalkOrder(order) || !inOrder(filter)) return null;
  // After a truncated page the walk goes on from its boundary (walk order): its page is the
  // first matches past that place, not the window's first in time order.
  if (request.after?.boundary) return null;
  const range = { ...focus };
  narrowToCursor(range, request);
  const tie = request.after?.key?.time ?? NaN;
  const plain = filter.glob === null && filter.minSizeBytes === null &&
    filter.maxSizeBytes === null;
  const compiled = plain ? null : compileFilter(filter);
  const wants = compiled &&
    ((path: string, isDirectory: boolean, info: Deno.FileInfo) =>
      compiled.wants(path, isDirectory) &&
      typeof compiled.judge(path, isDirectory, info) === "object");
  return {
    window: {
      created: focus.created,
      files: filter.includeFiles,
      folders: !focus.filesOnly,
      startAbs: startAbsOf(request),
      visitsStart: visitsStart(request),
      from: range.from,
      to: range.to,
      maxDepth: depthLimit(request),
      vcsLeftOut: !filter.includeVcs,
    },
    page: { desc: order === "time_desc", k: request.limit + 1, tie, wants },
  };
}
