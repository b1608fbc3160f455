/**
 * What an indexed answer may leave unvisited (contract §18: the index may answer any way
 * it likes, as long as the answer is a fresh walk's): a scan with a time window can only
 * match entries inside it, so the entries of held listings whose known time lies outside
 * it need not be handed to the walk at all. Folders are always handed out (the walk checks
 * each against the disk as it passes, for the changes no event reports), and so is any
 * entry whose time is not known.
 *
 * A scan's stats count what it examined, so they must not be used to decide anything the
 * walk decides by counting: with excludes or ignore files the count of what was left out
 * (`stats.excluded`) would change, so such scans are not focused; and a focused scan that
 * could have reached `MAX_FILES_SCANNED` unfocused is made again unfocused
 * ({@linkcode mayDiffer}).
 *
 * @module
 */
import type { SearchRequest } from "../query/mod.ts";
import type { ScanOutcome } from "../walk/mod.ts";
import { DIR, type EntryColumns } from "./entry_columns.ts";

/** The window a focused scan matches in: `[from, to)` of one time field, epoch ms. */
export interface Focus {
  created: boolean;
  from: number;
  to: number;
}

/** The focus of a request, or `null` when it has no window or its stats need every entry. */
export function focusOf(request: SearchRequest): Focus | null {
  const { from, to, timeField, exclude, respectIgnoreFiles } = request.filter;
  if (from === null && to === null) return null;
  if (exclude.length > 0 || respectIgnoreFiles) return null;
  return { created: timeField === "created", from: from ?? -Infinity, to: to ?? Infinity };
}

/**
 * Whether entry `e` cannot match `focus`: not a folder, its times known, and its time (a
 * created time must be known too) outside the window.
 */
export function outside(focus: Focus, cols: EntryColumns, e: number): boolean {
  if (cols.kind[e]! & DIR) return false;
  if (Number.isNaN(cols.mtime[e]!)) return false; // not stat'ed since its last change
  const time = focus.created ? cols.birth[e]! : cols.mtime[e]!;
  if (focus.created && time === 0) return false; // unknown: counted by the filter
  return time < focus.from || time >= focus.to;
}

/**
 * Whether an unfocused walk could have answered otherwise: it would have visited
 * `dropped` more files, and a page is cut by counts of what was visited.
 */
export function mayDiffer(outcome: ScanOutcome, dropped: number, request: SearchRequest): boolean {
  if (dropped === 0) return false;
  return outcome.stopped !== null ||
    outcome.walk.scannedFiles + dropped > request.limits.maxFilesScanned;
}
