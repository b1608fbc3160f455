/**
 * Shaping tool results (contract §4): a success with its summary line, and the
 * three-line error with its JSON twin.
 *
 * @module
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolError } from "../errors.ts";
import { errorText } from "../presentation.ts";
import { structuredResult } from "../result_words.ts";
import type { SearchResult } from "../search/mod.ts";

/**
 * A successful result: `content[0]` a one-line summary, `content[1]` the JSON of
 * `structuredContent`, which says everything the summary says (contract §4).
 */
export function successResult(result: SearchResult, now: number): CallToolResult {
  const { structured, line } = structuredResult(result, now);
  return structuredSuccess(structured, line);
}

/** A successful result from its structured content and the line people read. */
export function structuredSuccess(structured: object, line: string): CallToolResult {
  return {
    content: [
      { type: "text", text: line },
      { type: "text", text: JSON.stringify(structured) },
    ],
    structuredContent: structured as unknown as Record<string, unknown>,
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
export function errorResult(error: ToolError, now?: number): CallToolResult {
  const json = { error: { type: error.code, message: error.message, hint: error.fix } };
  return {
    content: [
      { type: "text", text: errorText(error, now) },
      { type: "text", text: JSON.stringify(json) },
    ],
    isError: true,
  };
}
