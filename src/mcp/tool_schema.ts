/**
 * The published definition of `fs.search_by_time` (contract §3): the contract's
 * inputSchema and outputSchema as literal JSON, plus our additive, optional inputs and
 * fields (§4, §11, §24a, §27); and the pieces the other tools share (the server's time, a
 * clock, notes). Every input is taught in a sentence or two; the outputs name their fields
 * and say only what a name cannot (contract §24a: `tools/list` at most 14,000 characters).
 *
 * @module
 */
import { PERIODS } from "../query/mod.ts";

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
        "An allowed root as fs.list_roots lists it, or '*' for all. Default: the default root.",
    },
    path: {
      type: "string",
      description: "A folder of the root to search, e.g. 'docs/2025'.",
    },
    timeField: {
      type: "string",
      description:
        "'modified' (last change) or 'created' (birth time, where the file system has it).",
      enum: ["modified", "created"],
    },
    within: {
      type: "string",
      description:
        "A duration back from now: '24h', '7d', '2weeks', '90min' ('m' is minutes), 'P7D'. Not with 'from' or 'period'.",
    },
    period: {
      type: "string",
      enum: PERIODS,
      description:
        "A calendar period in the server's time zone (Monday weeks). Not with 'within', 'from', 'to'.",
    },
    from: {
      type: "string",
      format: "date-time",
      description: "Range start, inclusive: RFC 3339 with an offset, e.g. '2025-12-15T00:00:00Z'.",
    },
    to: {
      type: "string",
      format: "date-time",
      description: "Range end, exclusive, e.g. '2026-01-01T00:00:00+09:00'.",
    },
    glob: {
      type: "string",
      description:
        "On the root-relative path: '**/*.md' (any depth), '*.md' (top only), 'docs/**'.",
    },
    caseSensitive: {
      type: "boolean",
      description:
        "Case in 'glob' and 'exclude'. Default: exact only if the pattern has upper case.",
    },
    recursive: {
      type: "boolean",
      default: true,
      description: "false: only the entries directly in 'path', e.g. what changed in 'Downloads'.",
    },
    maxDepth: {
      type: "integer",
      minimum: 0,
      description:
        "How deep below 'path': 0 'path' itself, 1 its entries. Default: the server's limit (256).",
    },
    includeFiles: {
      type: "boolean",
      default: true,
      description: "Return files (default true); false with includeDirectories lists folders only.",
    },
    includeDirectories: {
      type: "boolean",
      default: false,
      description: "Return folders too, by their own times, e.g. 'which folders changed'.",
    },
    sort: {
      type: "string",
      enum: ["time_desc", "time_asc", "path_asc"],
      default: "time_desc",
      description: "'time_desc' newest first (default), 'time_asc' oldest first, or 'path_asc'.",
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: 1000,
      default: 100,
      description: "Results per page, 1 to 1000, e.g. 10 for 'the ten newest files'.",
    },
    minSizeBytes: {
      type: "integer",
      minimum: 0,
      description: "Only files of at least this many bytes, e.g. 104857600 (100 MiB).",
    },
    maxSizeBytes: {
      type: "integer",
      minimum: 0,
      description: "Only files smaller than this many bytes, e.g. 1024.",
    },
    cursor: {
      type: "string",
      description: "The previous answer's nextCursor (same other arguments).",
    },
    includeUnknownTime: {
      type: "boolean",
      default: false,
      description: "With timeField 'created': also entries with no recorded created time.",
    },
    exclude: {
      type: "array",
      items: { type: "string" },
      maxItems: 64,
      description:
        "Globs to leave out (a folder with all in it); a name without '/' at any depth: ['node_modules'].",
    },
    respectIgnoreFiles: {
      type: "boolean",
      description: "Leave out what .gitignore and .ignore files say, as git does.",
    },
    includeVcs: {
      type: "boolean",
      default: false,
      description:
        "Also list what is inside .git, .hg, .svn and .jj folders (left out by default).",
    },
  },
  required: ["timeField"],
} as const;

/**
 * A value of `schema` or `null`, spelled as two single-type `anyOf` branches: the same values
 * as `type: [..., "null"]`, but portable to clients that map schemas onto a single-`type`
 * dialect (the MCP Inspector's `--strict` check warns about type arrays; contract §3, §23).
 */
export function nullable<const T extends Record<string, unknown>>(schema: T) {
  return { anyOf: [schema, { type: "null" }] } as const;
}

/** A count (the contract's own fields say `minimum: 0`; ours leave it to the name). */
export const COUNT = { type: "integer" } as const;
/** A count of the contract's own schema (§3). */
const SEED_COUNT = { type: "integer", minimum: 0 } as const;
/** A UTC time. */
export const TIME = { type: "string", format: "date-time" } as const;

/** The server's time and zone, once (contract §4, §21, §24a): every tool's result has them. */
export const SERVER_CLOCK_SCHEMA = {
  serverTime: TIME,
  timeZone: {
    type: "object",
    properties: { name: { type: "string" }, offset: { type: "string" } },
  },
} as const;

/** A root's clock (contract §24): what fs.changes_since takes as 'since'. */
export const CLOCK_SCHEMA = {
  type: "string",
  description: "For fs.changes_since's 'since'.",
} as const;

/** Each fact besides the summary's count, with a stable code (contract §4, §24a). */
export const NOTES_SCHEMA = {
  type: "array",
  items: { type: "object", properties: { code: { type: "string" }, message: { type: "string" } } },
} as const;

/** The words every answer begins with: the root answered for, the summary, the notes. */
export const WORDS_SCHEMA = {
  root: { type: "string" },
  summary: { type: "string" },
  notes: NOTES_SCHEMA,
} as const;

/** The contract's outputSchema (§3), with the optional additions of contract §4, §7 and §11. */
export const SEARCH_OUTPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...WORDS_SCHEMA,
    timeField: { type: "string", enum: ["modified", "created"] },
    range: {
      type: "object",
      additionalProperties: false,
      properties: { from: nullable(TIME), to: nullable(TIME) },
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
          sizeBytes: nullable(SEED_COUNT),
          modifiedAt: TIME,
          createdAt: nullable(TIME),
          root: { type: "string" },
        },
        required: ["path", "isDirectory", "sizeBytes", "modifiedAt", "createdAt"],
      },
    },
    nextCursor: nullable({ type: "string" }),
    clock: CLOCK_SCHEMA,
    clocks: {
      type: "array",
      description: "With root '*': each root's clock.",
      items: {
        type: "object",
        properties: { root: { type: "string" }, clock: { type: "string" } },
      },
    },
    stats: {
      type: "object",
      additionalProperties: false,
      properties: {
        scannedFiles: SEED_COUNT,
        scannedDirectories: SEED_COUNT,
        returned: SEED_COUNT,
        truncated: { type: "boolean" },
        skipped: COUNT,
        elapsedMs: COUNT,
        unknownTime: COUNT,
        totalMatches: COUNT,
        matchesAtLeast: COUNT,
        excluded: COUNT,
      },
      required: ["scannedFiles", "scannedDirectories", "returned"],
    },
    ...SERVER_CLOCK_SCHEMA,
  },
  required: ["timeField", "range", "matches", "nextCursor", "stats"],
} as const;
