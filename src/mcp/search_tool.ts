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
  "Find recent, recently changed, newest or latest files (and optionally folders) by modified or created time,",
  "under an allowed root: what changed today, this week or in the last 24 hours, what was created last week.",
  "Common questions: 'what changed in the last 24 hours' is within: '24h' (or '7d', '2weeks');",
  "'what changed today' is period: 'today' (or 'yesterday', 'this_week', 'last_month'...), in the server's time zone;",
  "'the newest files' needs no window: sort 'time_desc' (the default) with a 'limit';",
  "'big files changed this week' adds minSizeBytes.",
  "For exact ranges, 'from' (inclusive) and 'to' (exclusive) take RFC 3339 date-times with an offset",
  "(e.g. '2025-12-01T00:00:00Z'). Results carry times in UTC; range echoes the window used.",
  "Each result's 'summary' states what was found, the window in the server's time zone and the server's current time; 'notes' say why a page is partial or empty, each with a code.",
  "'glob' is matched against the whole root-relative path: '**/*.md' finds Markdown files at any depth, '*.md' only at the top; in any case unless it has an upper-case letter (smart case; 'caseSensitive' forces either).",
  "'path' narrows the search to a folder relative to the root. Paths in results are root-relative with '/'.",
  "Sort by time_desc (newest first, default), time_asc or path_asc; 'limit' is 1..1000 (default 100).",
  "If 'nextCursor' is not null, call again with the same arguments plus 'cursor' set to it to get the next page;",
  "stats.truncated true means the server's scan limit was reached and the page covers only part of the tree: keep paging.",
  "Symbolic links are listed as files and never followed.",
].join(" ");

/** The tool as `tools/list` publishes it. */
export const SEARCH_TOOL: Tool = {
  name: SEARCH_TOOL_NAME,
  title: "Find recent files by modified or created time",
  description: DESCRIPTION,
  inputSchema: SEARCH_INPUT_SCHEMA as unknown as Tool["inputSchema"],
  outputSchema: SEARCH_OUTPUT_SCHEMA as unknown as NonNullable<Tool["outputSchema"]>,
  annotations: {
    title: "Find recent files by modified or created time",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};
