/**
 * The CLI's readable table: path, kind, size, modified, created, and age.
 *
 * @module
 */
import { summaryLine } from "../presentation.ts";
import { localTime, serverTimeZone } from "../query/mod.ts";
import { CLI_WORDS } from "./flags.ts";
import type { SearchResult } from "../search/mod.ts";

/**
 * Formats a search result as an aligned table, then the summary line and, if there
 * is more, the command that shows the next page. Times are in this machine's zone, named in
 * the header (as the window in the summary line), or in UTC with `utc` (contract §26).
 *
 * @example
 * ```ts
 * formatTable(result, Date.now(), (cursor) => `file-time-search search ~/docs --cursor ${cursor}`);
 * // PATH       KIND  SIZE   MODIFIED          CREATED           AGE
 * // docs/a.md  file  1.2 KB 2025-06-02 10:00  2025-06-01 09:00  3d
 * ```
 */
export function formatTable(
  result: SearchResult,
  now: number,
  nextPage: (cursor: string) => string,
  utc = false,
): string {
  const { output, request } = result;
  const zone = utc ? "UTC" : serverTimeZone();
  const minute = (iso: string) =>
    utc ? iso.slice(0, 16).replace("T", " ") : localTime(Date.parse(iso), zone).time;
  const rows = output.matches.map((m) => {
    const t = request.filter.timeField === "modified" ? m.modifiedAt : m.createdAt;
    return [
      m.path,
      m.isDirectory ? "dir" : "file",
      m.sizeBytes === null ? "-" : size(m.sizeBytes),
      minute(m.modifiedAt),
      m.createdAt === null ? "-" : minute(m.createdAt),
      t === null ? "-" : age(now - Date.parse(t)),
    ];
  });
  const header = ["PATH", "KIND", "SIZE", `MODIFIED (${zone})`, `CREATED (${zone})`, "AGE"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ")
      .trimEnd();
  const lines = rows.length === 0 ? [] : [line(header), ...rows.map(line)];
  lines.push(summaryLine(result, undefined, CLI_WORDS));
  if (output.nextCursor !== null) lines.push(`Next page: ${nextPage(output.nextCursor)}`);
  return lines.join("\n") + "\n";
}

function size(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

function age(ms: number): string {
  if (ms < 0) return "future";
  const s = ms / 1000;
  if (s < 60) return `${Math.floor(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  if (s < 86400 * 60) return `${Math.floor(s / 86400)}d`;
  if (s < 86400 * 730) return `${Math.floor(s / (86400 * 30))}mo`;
  return `${Math.floor(s / (86400 * 365))}y`;
}
