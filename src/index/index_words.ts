/**
 * The words the logs and `fs.list_roots` use for a root's index (contract §18): why it is
 * not indexed, and the lines said when it is ready, filled again or back to walks.
 *
 * @module
 */
import type { ScanOutcome } from "../walk/mod.ts";
import { ToolError } from "../errors.ts";
import { failureKind } from "../workers/mod.ts";
import type { IndexReport } from "./answer/mod.ts";
import { OPENED_FOLDER, SPECIAL_REPLAN } from "./watch/mod.ts";

export { OPENED_FOLDER };

/** Why no root is indexed when the server has no private folder for its cookies (§13, `why`). */
export function noCookies(why: string): string {
  return `the index has no private folder for its barrier (${why}; give the server --allow-write=/tmp and /tmp in --allow-read), so no indexed answer could be proved up to date`;
}
/** Why no root is indexed on Windows (contract §18: no order across watched folders). */
export const NO_ORDER =
  "on Windows the watch gives no order across folders, so no indexed answer could be proved up to date";
/** Why a root's watch is set up again after a folder was found on another device. */
export const MOUNTED_FOLDER =
  "a file system was mounted or unmounted on a folder in it, which no event reports and its watch does not reach; its watch is set up again";

/** Why a root's watch is set up again after an answer's report (it said one of these). */
export function rewatchReason(report: IndexReport): string {
  return report.special ? SPECIAL_REPLAN : report.opened ? OPENED_FOLDER : MOUNTED_FOLDER;
}

/** Why a fill failed, in words without paths. */
export function fillFailure(err: unknown): string {
  const kind = failureKind(err);
  if (kind === "IndexUnsettled") return "the tree kept changing under it";
  return kind ?? (err instanceof ToolError ? err.code : err instanceof Error ? err.name : "error");
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
  return `index: root #${root} changed faster than its events could be read; its watch is set up again and its index built again.`;
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
