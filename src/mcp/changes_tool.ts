/**
 * `fs.changes_since` as `tools/list` publishes it (contract §3, §24): its inputs (`since`,
 * and the filters and paging of `fs.search_by_time`), its outputSchema, and a description
 * that teaches the clock.
 *
 * @module
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  CLOCK_SCHEMA,
  NOTES_SCHEMA,
  nullable,
  SEARCH_INPUT_SCHEMA,
  SERVER_CLOCK_SCHEMA,
} from "./tool_schema.ts";

/** The tool's stable name. */
export const CHANGES_TOOL_NAME = "fs.changes_since";

const search = SEARCH_INPUT_SCHEMA.properties;

/** Its inputs (contract §24). */
export const CHANGES_INPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    since: {
      type: "string",
      description:
        "Since when: the 'clock' of an earlier answer of this server (fs.search_by_time, fs.list_roots or fs.changes_since) for an exact answer with removals and renames; or an RFC 3339 date-time with an offset ('2025-12-15T09:00:00Z'); or a duration back from now ('2h', '24h', '7d').",
    },
    root: {
      type: "string",
      description:
        "The root: one of the server's allowed roots, exactly as fs.list_roots lists it. Omit to use the default root.",
    },
    path: {
      type: "string",
      description:
        "Only changes at or under this path, relative to the root, '/'-separated (e.g. 'src'). Default: the whole root.",
    },
    glob: search.glob,
    caseSensitive: search.caseSensitive,
    includeFiles: search.includeFiles,
    includeDirectories: search.includeDirectories,
    exclude: search.exclude,
    respectIgnoreFiles: search.respectIgnoreFiles,
    limit: search.limit,
    cursor: {
      type: "string",
      description:
        "Opaque cursor from a previous result's 'nextCursor', with the same other arguments; every page answers as of the first page's clock.",
    },
  },
  required: ["since"],
} as const;

const TIME = { type: "string", format: "date-time" } as const;

/** Its outputSchema (contract §24), with the words of contract §4. */
export const CHANGES_OUTPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    summary: { type: "string", description: "The one-line summary, every note, the server time." },
    notes: NOTES_SCHEMA,
    clock: CLOCK_SCHEMA,
    since: {
      ...TIME,
      description: "The time the changes are since (the clock's, or the one given).",
    },
    freshInstance: {
      type: "boolean",
      description:
        "true: the server cannot know what happened since then (the clock is from another run, too old, from before a loss of events, or the root is not indexed): listed is every entry modified or created since then, and no removals.",
    },
    complete: { type: "boolean" },
    reason: { type: "string", description: "Why the answer is a fresh instance." },
    changes: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        properties: {
          path: { type: "string" },
          change: { type: "string", enum: ["created", "modified", "removed", "renamed"] },
          isDirectory: { type: "boolean" },
          sizeBytes: nullable({ type: "integer", minimum: 0 }),
          modifiedAt: nullable(TIME),
          createdAt: nullable(TIME),
          previousPath: { type: "string", description: "A renamed entry's path before." },
        },
        required: ["path", "change", "isDirectory", "sizeBytes", "modifiedAt", "createdAt"],
      },
    },
    nextCursor: nullable({ type: "string" }),
    stats: {
      type: "object",
      additionalProperties: false,
      properties: {
        returned: { type: "integer", minimum: 0 },
        elapsedMs: { type: "integer", minimum: 0 },
        totalChanges: { type: "integer", minimum: 0 },
        counts: {
          type: "object",
          additionalProperties: false,
          properties: Object.fromEntries(
            ["created", "modified", "removed", "renamed"].map((k) => [k, { type: "integer" }]),
          ),
        },
        scannedFiles: { type: "integer", minimum: 0 },
        scannedDirectories: { type: "integer", minimum: 0 },
        truncated: { type: "boolean" },
      },
      required: ["returned", "elapsedMs"],
    },
    ...SERVER_CLOCK_SCHEMA,
  },
  required: ["clock", "since", "freshInstance", "complete", "changes", "nextCursor", "stats"],
} as const;

const DESCRIPTION = [
  "What changed since: the files and folders created, modified, renamed or removed (deleted) under an allowed root since an earlier answer or a time,",
  "after a build, a git checkout, an npm install, a test run or a sync.",
  "Every answer of this server carries a 'clock': keep it, and pass it as 'since' later to get exactly what changed after that answer, removals and renames included, each entry once (its net change; created then removed in between is not listed).",
  "The answer's 'clock' is the one to use next time. 'since' may also be a date-time or a duration ('2h').",
  "When the server cannot know (freshInstance: true, with the reason: it restarted, the clock is too old, events were lost, or the root is not indexed), it lists every entry modified or created since then, and says that removals cannot be known.",
  "Filters as fs.search_by_time: 'path', 'glob', 'exclude', ignore files, 'includeDirectories'. Changes come in path order; page with 'nextCursor'.",
].join(" ");

/** The tool as `tools/list` publishes it. */
export const CHANGES_TOOL: Tool = {
  name: CHANGES_TOOL_NAME,
  title: "What changed recently: files created, modified, renamed or removed since a clock",
  description: DESCRIPTION,
  inputSchema: CHANGES_INPUT_SCHEMA as unknown as Tool["inputSchema"],
  outputSchema: CHANGES_OUTPUT_SCHEMA as unknown as NonNullable<Tool["outputSchema"]>,
  annotations: {
    title: "What changed recently: files created, modified, renamed or removed since a clock",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};
