/**
 * The published definition of `fs.search_by_time` (contract §3):
 * the contract's inputSchema (§3) and outputSchema as literal JSON, plus our additive,
 * optional `stats` fields of contract §11.
 *
 * @module
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** The tool's stable name. */
export const SEARCH_TOOL_NAME = "fs.search_by_time";

/** The contract's inputSchema (§3) (descriptions in English). */
export const SEARCH_INPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    root: {
      type: "string",
      description:
        "Search root: one of the server's allowed roots, exactly as configured. Omit to use the default root.",
    },
    path: {
      type: "string",
      description:
        "Start path relative to root, '/'-separated (e.g. 'docs/2025'). Default: the root itself. Never absolute, never '..' above the root.",
    },
    timeField: {
      type: "string",
      description:
        "Which time to filter and sort by: 'modified' (last modification) or 'created' (birth time; not every file system records it).",
      enum: ["modified", "created"],
    },
    from: {
      type: "string",
      format: "date-time",
      description:
        "Start of the range, inclusive. RFC 3339 with an offset, e.g. '2025-12-15T00:00:00Z' or '2025-12-15T09:00:00+09:00'. Optional.",
    },
    to: {
      type: "string",
      format: "date-time",
      description: "End of the range, exclusive. Same format as 'from'. Optional.",
    },
    glob: {
      type: "string",
      description:
        "Glob matched against the whole root-relative path, e.g. '**/*.md' (any depth), '*.md' (top level only), 'docs/**'. Omit to match everything.",
    },
    recursive: {
      type: "boolean",
      default: true,
    },
    maxDepth: {
      type: "integer",
      minimum: 0,
      description:
        "Maximum depth below the start path when recursive (0 = the start path only). Ignored when recursive is false. Default: the server's limit.",
    },
    includeFiles: {
      type: "boolean",
      default: true,
    },
    includeDirectories: {
      type: "boolean",
      default: false,
    },
    sort: {
      type: "string",
      enum: ["time_desc", "time_asc", "path_asc"],
      default: "time_desc",
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: 1000,
      default: 100,
    },
    cursor: {
      type: "string",
      description:
        "Opaque pagination cursor: pass the previous result's nextCursor unchanged, with the same arguments otherwise.",
    },
    includeUnknownTime: {
      type: "boolean",
      default: false,
      description:
        "With timeField 'created': also return entries whose file system records no creation time (createdAt null), whatever from/to say. Default false.",
    },
    exclude: {
      type: "array",
      items: { type: "string" },
      maxItems: 64,
      description:
        "Globs (same syntax as 'glob') for entries to leave out; a matching folder is not searched at all. Use it to skip noise such as ['**/node_modules', '**/.cache', '**/*.tmp'].",
    },
    respectIgnoreFiles: {
      type: "boolean",
      description:
        "Leave out what .gitignore and .ignore files (and .git/info/exclude) say, and .git folders, as git does. Set it true for 'what did I change' questions in code folders, so build output and dependencies do not crowd the answer. Default: the server's setting (usually false).",
    },
  },
  required: ["timeField"],
} as const;

/** The contract's outputSchema (§3), with the optional `stats` additions of contract §7 and §11. */
export const SEARCH_OUTPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    timeField: { type: "string", enum: ["modified", "created"] },
    range: {
      type: "object",
      additionalProperties: false,
      properties: {
        from: { type: ["string", "null"], format: "date-time" },
        to: { type: ["string", "null"], format: "date-time" },
      },
      required: ["from", "to"],
    },
    matches: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        properties: {
          path: { type: "string" },
          isDirectory: { type: "boolean" },
          sizeBytes: { type: ["integer", "null"], minimum: 0 },
          modifiedAt: { type: "string", format: "date-time" },
          createdAt: { type: ["string", "null"], format: "date-time" },
        },
        required: ["path", "isDirectory", "sizeBytes", "modifiedAt", "createdAt"],
      },
    },
    nextCursor: { type: ["string", "null"] },
    stats: {
      type: "object",
      additionalProperties: false,
      properties: {
        scannedFiles: { type: "integer", minimum: 0 },
        scannedDirectories: { type: "integer", minimum: 0 },
        returned: { type: "integer", minimum: 0 },
        truncated: { type: "boolean" },
        skipped: { type: "integer", minimum: 0 },
        elapsedMs: { type: "integer", minimum: 0 },
        unknownTime: { type: "integer", minimum: 0 },
        totalMatches: { type: "integer", minimum: 0 },
        excluded: { type: "integer", minimum: 0 },
      },
      required: ["scannedFiles", "scannedDirectories", "returned"],
    },
  },
  required: ["timeField", "range", "matches", "nextCursor", "stats"],
} as const;

const DESCRIPTION = [
  "Find files (and optionally folders) under an allowed root by modified or created time.",
  "Time range: 'from' is inclusive and 'to' is exclusive; both are RFC 3339 date-times with an offset",
  "(e.g. '2025-12-01T00:00:00Z'); either may be omitted. Results carry times in UTC.",
  "The summary line states the server's current UTC time, so relative requests such as 'last 7 days' can be computed from it.",
  "'glob' is matched against the whole root-relative path: '**/*.md' finds Markdown files at any depth, '*.md' only at the top.",
  "'path' narrows the search to a folder relative to the root. Paths in results are root-relative with '/'.",
  "Sort by time_desc (newest first, default), time_asc or path_asc; 'limit' is 1..1000 (default 100).",
  "If 'nextCursor' is not null, call again with the same arguments plus 'cursor' set to it to get the next page;",
  "stats.truncated true means the server's scan limit was reached and the page covers only part of the tree: keep paging.",
  "Symbolic links are listed as files and never followed.",
].join(" ");

/** The tool as `tools/list` publishes it. */
export const SEARCH_TOOL: Tool = {
  name: SEARCH_TOOL_NAME,
  title: "Search files by time",
  description: DESCRIPTION,
  inputSchema: SEARCH_INPUT_SCHEMA as unknown as Tool["inputSchema"],
  outputSchema: SEARCH_OUTPUT_SCHEMA as unknown as NonNullable<Tool["outputSchema"]>,
  annotations: {
    title: "Search files by time",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};
