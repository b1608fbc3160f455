/**
 * How a root's index is filled (contract §18): once its watch runs, one scan over the
 * whole root, on the index worker, records every folder's listing and every entry's
 * lstat. It is an ordinary scan (the same walk, checks and guards as a call's) that
 * matches every file and keeps only the newest, so that the walk visits everything and
 * collects next to nothing; it gives way while calls run (`giveWay`), so that calls made
 * while it builds are not slowed by it. And the words the logs use for a root's index.
 *
 * @module
 */
import { DEFAULT_LIMITS, type Root } from "../config.ts";
import { EVERY_FILE, type SearchRequest } from "../query/mod.ts";
import type { ScanOutcome } from "../walk/mod.ts";
import type { IndexReport } from "./index_protocol.ts";

/** How long a fill may take before it is given up (the root then goes back to walks). */
export const FILL_TIMEOUT_MS = 60 * 60_000;
/** Fills that fail in a row before the root goes back to walks (its watch tried again later). */
export const FILL_ATTEMPTS = 5;

/** Why no root is indexed when the server has no private folder for its cookies (§13, `why`). */
export function noCookies(why: string): string {
  return `the index has no private folder for its barrier (${why}; give the server --allow-write=/tmp and /tmp in --allow-read), so no indexed answer could be proved up to date`;
}
/** Why no root is indexed on Windows (contract §18: no order across watched folders). */
export const NO_ORDER =
  "on Windows the watch gives no order across folders, so no indexed answer could be proved up to date";
/** Why a root that holds a FIFO or device file is not watched (contract §18). */
export const SPECIAL_FILES =
  "it holds a FIFO or device file, which the runtime's watcher would open (and block on) when an event names it; it is walked until the server restarts";
/** Why a root's watch is set up again after a folder it could not list was listed. */
export const OPENED_FOLDER =
  "a folder it could not read can be read now, and the runtime's watch never took it; its watch is set up again";

/** The scan that fills `root`'s index: every entry to `maxDepth`, up to `maxEntries`. */
export function fillRequest(root: Root, maxEntries: number, maxDepth?: number): SearchRequest {
  return {
    root,
    start: { path: "", recursive: true, maxDepth: null },
    filter: { ...EVERY_FILE, exclude: [], includeUnknownTime: true },
    order: "time_desc",
    limit: 1,
    after: null,
    limits: {
      maxFilesScanned: maxEntries + 1,
      maxDirectoriesScanned: maxEntries + 1,
      scanTimeoutMs: FILL_TIMEOUT_MS,
      maxDepth: maxDepth ?? DEFAULT_LIMITS.maxDepth,
      onLimit: "partial",
    },
  };
}

/** The log line of a root whose index is ready: how many entries, how long it took. */
export function readyLine(root: number, entries: number, ms: number, fill: ScanOutcome): string {
  const cut = fill.stopped ? " (the fill stopped at a limit; the rest is read on demand)" : "";
  return `index: root #${root} is ready: ${entries} entries in ${
    (ms / 1000).toFixed(1)
  } s${cut}; answers come from memory.`;
}

/** The log line of a root whose fill helper failed (the fill goes on, on one core). */
export function helperLine(root: number): string {
  return `index: root #${root}'s fill helper failed; its index is filled on one core.`;
}

/** The log line of a root whose events overflowed: its index is built again. */
export function rebuildLine(root: number): string {
  return `index: root #${root} changed faster than its events could be read; its index is built again.`;
}

/** The log line of a root that goes back to walks, and why. */
export function offLine(root: number, reason: string): string {
  return `index: root #${root} is scanned without an index: ${reason}.`;
}

/** Why an index that passed `INDEX_MAX_ENTRIES` (`maxEntries`) or its memory budget stopped. */
export function overflowReason(report: IndexReport, maxEntries: number): string {
  const mb = Math.round(report.budgetBytes / 2 ** 20);
  return report.overflowed === "entries"
    ? `more than ${maxEntries} entries (INDEX_MAX_ENTRIES)`
    : `its index reached its memory budget (${mb} MB) at ${report.entries} entries`;
}
