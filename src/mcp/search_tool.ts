/**
 * `fs.search_by_time` as `tools/list` publishes it (contract §3): its title, its
 * description (with the words tool search finds it by, at most 2,048 characters) and
 * its schemas (tool_schema.ts).
 *
 * @module
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { SEARCH_INPUT_SCHEMA, SEARCH_OUTPUT_SCHEMA, SEARCH_TOOL_NAME } from "./tool_schema.ts";

const DESCRIPTION = [
  "Find recent, recently changed, newest or latest files (and optionally folders) by modified or created time under an allowed root.",
  "'What changed in the last 24 hours': within: '24h' (or '7d', '2weeks'); 'today', 'this week': period: 'today' (or 'yesterday', 'this_week', 'last_month'), in the server's time zone; 'the newest files': no window and a 'limit'.",
  "Exact ranges: 'from' (inclusive), 'to' (exclusive), RFC 3339 with an offset. Result times are UTC; paths are relative to the answer's 'root', which 'glob' is matched against.",
  "If 'nextCursor' is not null, call again with 'cursor'; 'notes' say why a page is partial or empty. Links are never followed.",
  "What was removed or renamed: fs.changes_since with the answer's 'clock'.",
].join(" ");

/** The tool as `tools/list` publishes it. */
export const SEARCH_TOOL: Tool = {
  name: SEARCH_TOOL_NAME,
  title: "Find recent files by modified or created time",
  description: DESCRIPTION,
  inputSchema: SEARCH_INPUT_SCHEMA as unknown as Tool["inputSchema"],
  outputSchema: SEARCH_OUTPUT_SCHEMA as unknown as NonNullable<Tool["outputSchema"]>,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};
