/**
 * The published definition of `fs.search_by_time` (contract §3):
 * the contract's inputSchema (§3) and outputSchema as literal JSON, plus our additive,
 * optional `stats` fields of contract §11.
 *
 * @module
 */
import { PERIODS } from "../query/mod.ts";
import { NOTE_CODES } from "../presentation.ts";

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
        "Search root: one of the server's allowed roots, exactly as fs.list_roots lists it, or '*' for every root at once (each match then names its root). Omit to use the default root.",
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
    within: {
      type: "string",
      description:
        "The easiest way to ask for recent changes: a duration back from now, e.g. '24h' (the last 24 hours), '7d', '2weeks', '90min', '3d4h', '1mo', '1y' ('m' is minutes, 'mo' months), or ISO 8601 such as 'PT24H' or 'P7D'. Months and years are calendar steps in the server's time zone. Not with 'from' or 'period'; may be given with 'to'. Omit for no lower bound.",
    },
    period: {
      type: "string",
      enum: PERIODS,
      description:
        "A calendar period in the server's time zone (weeks start on Monday), e.g. 'today' for what changed today. Not with 'within', 'from' or 'to'. Omit for no calendar period.",
    },
    from: {
      type: "string",
      format: "date-time",
      description:
        "Start of the range, inclusive: RFC 3339 with an offset, e.g. '2025-12-15T00:00:00Z' or '2025-12-15T09:00:00+09:00'. Omit for no lower bound; for 'recent' prefer 'within'.",
    },
    to: {
      type: "string",
      format: "date-time",
      description:
        "End of the range, exclusive, in the same format as 'from', e.g. '2026-01-01T00:00:00Z'. Omit for no upper bound.",
    },
    glob: {
      type: "string",
      description:
        "Glob matched against the whole root-relative path, e.g. '**/*.md' (any depth), '*.md' (top level only), 'docs/**'. Omit to match everything.",
    },
    caseSensitive: {
      type: "boolean",
      description:
        "How 'glob' and 'exclude' treat case. Omit for smart case: a pattern with no upper-case letter matches any case ('**/*.jpg' finds IMG_0001.JPG), one with an upper-case letter matches exactly. true: always exact; false: always any case.",
    },
    recursive: {
      type: "boolean",
      default: true,
      description:
        "Search the folders below the start path too (default true); false looks at the start path's own entries only, e.g. what changed directly in 'Downloads'.",
    },
    maxDepth: {
      type: "integer",
      minimum: 0,
      description:
        "How deep below the start path to look when recursive: 0 is the start path only, 1 its own entries, e.g. 2. Default: the server's limit (256 unless MAX_DEPTH says otherwise). Ignored when recursive is false.",
    },
    includeFiles: {
      type: "boolean",
      default: true,
      description:
        "Return files (default true). Set false together with includeDirectories true to list folders only.",
    },
    includeDirectories: {
      type: "boolean",
      default: false,
      description:
        "Return folders too, by their own times (default false), e.g. true for 'which project folders changed this week'.",
    },
    sort: {
      type: "string",
      enum: ["time_desc", "time_asc", "path_asc"],
      default: "time_desc",
      description:
        "Order of the results: 'time_desc' (newest first, the default), 'time_asc' (oldest first) or 'path_asc' (by path, fastest on big trees).",
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: 1000,
      default: 100,
      description:
        "How many results per page, 1 to 1000 (default 100), e.g. 10 for 'the ten newest files'; more come with 'cursor'.",
    },
    minSizeBytes: {
      type: "integer",
      minimum: 0,
      description:
        "Only files of at least this many bytes, e.g. 104857600 for 100 MiB ('big files this week'). Folders never match when a size bound is given. Omit for no lower bound.",
    },
    maxSizeBytes: {
      type: "integer",
      minimum: 0,
      description:
        "Only files of fewer than this many bytes (exclusive), e.g. 1024. Folders never match when a size bound is given. Omit for no upper bound.",
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
        "Globs (same syntax and case as 'glob') for entries to leave out; a matching folder is not searched at all. One with no '/' is a name at any depth, as in .gitignore: ['node_modules', '.git', 'target', '*.tmp']; one with a '/' is matched from the root ('build/out').",
    },
    respectIgnoreFiles: {
      type: "boolean",
      description:
        "Leave out what .gitignore and .ignore files (and .git/info/exclude) say, and .git folders, as git does. Set it true for 'what did I change' questions in code folders, so build output and dependencies do not crowd the answer. Default: the server's setting (usually false).",
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

/**
 * The server's time in UTC, in its zone and the zone (contract §4, §21): the same fields in
 * both tools' results.
 */
export const SERVER_CLOCK_SCHEMA = {
  serverTime: {
    type: "string",
    format: "date-time",
    description: "The server's current time (UTC).",
  },
  localTime: {
    type: "string",
    description: "The server's current time in its time zone, e.g. '2026-11-23 06:10'.",
  },
  timeZone: {
    type: "object",
    additionalProperties: false,
    description:
      "The server's time zone: 'period' and 'within' are counted in it. IANA name and current offset.",
    properties: { name: { type: "string" }, offset: { type: "string" } },
    required: ["name", "offset"],
  },
} as const;

/** A root's clock (contract §24): what fs.changes_since takes as 'since'. */
export const CLOCK_SCHEMA = {
  type: "string",
  description:
    "The root's clock now: pass it as 'since' to fs.changes_since later to learn what was created, modified, renamed or removed after this answer.",
} as const;

/** Each fact of a summary line besides its count, with a stable code (contract §4). */
export const NOTES_SCHEMA = {
  type: "array",
  description:
    `Each fact the summary states besides the plain count, window and time, with a stable code (the first three say the count is a lower bound or unknown): ${
      NOTE_CODES.join(", ")
    }.`,
  items: {
    type: "object",
    additionalProperties: false,
    properties: {
      code: { type: "string", enum: NOTE_CODES },
      message: { type: "string" },
    },
    required: ["code", "message"],
  },
} as const;

/**
 * The words of the summary line as fields (contract §4), optional so that older clients
 * still validate: Claude Code, Codex and VS Code give a model only the structured result.
 */
const WORDS_SCHEMA = {
  summary: {
    type: "string",
    description: "The one-line summary: what was found, the window, every note, the server time.",
  },
  notes: NOTES_SCHEMA,
  sort: { type: "string", enum: ["time_desc", "time_asc", "path_asc"] },
  window: nullable({
    type: "object",
    additionalProperties: false,
    description:
      "The time window in the server's time zone as local date-time words ('2026-11-22 00:00'; null: open), the zone and its offset at the start; range has the exact UTC ends.",
    properties: {
      from: nullable({ type: "string" }),
      to: nullable({ type: "string" }),
      timeZone: { type: "string" },
      offset: { type: "string" },
    },
    required: ["from", "to", "timeZone", "offset"],
  }),
  ...SERVER_CLOCK_SCHEMA,
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
      properties: {
        from: nullable({ type: "string", format: "date-time" }),
        to: nullable({ type: "string", format: "date-time" }),
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
          sizeBytes: nullable({ type: "integer", minimum: 0 }),
          modifiedAt: { type: "string", format: "date-time" },
          createdAt: nullable({ type: "string", format: "date-time" }),
          root: {
            type: "string",
            description: "With root '*': the root it was found under, as fs.list_roots lists it.",
          },
        },
        required: ["path", "isDirectory", "sizeBytes", "modifiedAt", "createdAt"],
      },
    },
    nextCursor: nullable({ type: "string" }),
    clock: CLOCK_SCHEMA,
    clocks: {
      type: "array",
      description: "With root '*': each root's clock (as 'clock' is for one root).",
      items: {
        type: "object",
        additionalProperties: false,
        properties: { root: { type: "string" }, clock: CLOCK_SCHEMA },
        required: ["root", "clock"],
      },
    },
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
        matchesAtLeast: { type: "integer", minimum: 0 },
        excluded: { type: "integer", minimum: 0 },
      },
      required: ["scannedFiles", "scannedDirectories", "returned"],
    },
  },
  required: ["timeField", "range", "matches", "nextCursor", "stats"],
} as const;
