/**
 * Shaping tool results (DECISIONS §4): a success with its summary line, and the
 * three-line error with its JSON twin.
 *
 * @module
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolError } from "../errors.ts";
import type { SearchResult } from "../search/search_by_time.ts";
import { formatTime } from "../search/time.ts";

/**
 * A successful result: `content[0]` a one-line summary, `content[1]` the JSON of
 * `structuredContent`.
 */
export function successResult(result: SearchResult, now: number): CallToolResult {
  return {
    content: [
      { type: "text", text: summaryLine(result, now) },
      { type: "text", text: JSON.stringify(result.output) },
    ],
    structuredContent: result.output as unknown as Record<string, unknown>,
    isError: false,
  };
}

/**
 * A tool execution error: `ErrorCode:`, `Message:`, `Fix:` lines (then any detail
 * lines), and `{"error":{"type","message","hint"}}`. No `structuredContent`.
 *
 * @example
 * ```ts
 * errorResult(new ToolError("InvalidRange", "'from' must not be later than 'to'.", "Set 'from' <= 'to'."))
 *   .content[0]; // { type: "text", text: "ErrorCode: InvalidRange\nMessage: ...\nFix: ..." }
 * ```
 */
export function errorResult(error: ToolError): CallToolResult {
  const lines = [
    `ErrorCode: ${error.code}`,
    `Message: ${error.message}`,
    `Fix: ${error.fix}`,
    ...error.details,
  ];
  const json = { error: { type: error.code, message: error.message, hint: error.fix } };
  return {
    content: [
      { type: "text", text: lines.join("\n") },
      { type: "text", text: JSON.stringify(json) },
    ],
    isError: true,
  };
}

/**
 * E.g. `Found 2 files (sorted by modified desc). Server time: 2026-01-02T03:04:05.000Z.`
 * Without `now`, the server time is left out.
 */
export function summaryLine({ output, query }: SearchResult, now?: number): string {
  const n = output.matches.length;
  const noun = query.includeDirectories
    ? (n === 1 ? "entry" : "entries")
    : (n === 1 ? "file" : "files");
  const order = query.sort === "path_asc"
    ? "path"
    : `${query.timeField} ${query.sort === "time_desc" ? "desc" : "asc"}`;
  const parts = [`Found ${n} ${noun} (sorted by ${order}).`];
  if (output.stats.truncated) {
    parts.push(
      "The scan reached a server limit, so this page covers only part of the tree; call again with 'cursor' set to nextCursor to continue" +
        (query.sort === "path_asc"
          ? "."
          : " (after a truncated scan, time order holds within each page only)."),
    );
  } else if (output.nextCursor !== null) {
    parts.push("More results: call again with 'cursor' set to nextCursor.");
  }
  if (output.stats.skipped > 0) {
    parts.push(`${output.stats.skipped} entries could not be read and were skipped.`);
  }
  if (now !== undefined) parts.push(`Server time: ${formatTime(now)}.`);
  return parts.join(" ");
}
