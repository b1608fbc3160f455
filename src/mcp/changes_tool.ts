/**
 * `fs.changes_since` as `tools/list` publishes it (contract §3, §24, §24a, §27): its inputs
 * (`since`, `expand`, and the filters and paging of `fs.search_by_time`), its outputSchema,
 * and a description that teaches the clock, with its own examples.
 *
 * @module
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  CLOCK_SCHEMA,
  COUNT,
  nullable,
  SEARCH_INPUT_SCHEMA,
  SERVER_CLOCK_SCHEMA,
  TIME,
  WORDS_SCHEMA,
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
        "A 'clock' from an earlier answer (exact, removals too), or a time: RFC 3339 with an offset or a duration back from now ('2h').",
    },
    root: {
      type: "string",
      description:
        "An allowed root as fs.list_roots lists it. Default: the clock's root, else the default root.",
    },
    path: {
      type: "string",
      description: "Only changes at or under this folder of the root, e.g. 'src'.",
    },
    glob: { type: "string", description: "On the root-relative path, e.g. 'src/**/*.ts'." },
    caseSensitive: { type: "boolean", description: "Case in 'glob' and 'exclude', as in search." },
    includeFiles: { type: "boolean", default: true, description: "Files (default true)." },
    includeDirectories: {
      type: "boolean",
      default: false,
      description: "Folders too: one moved or removed whole is one entry.",
    },
    expand: {
      type: "boolean",
      default: false,
      description: "List each entry of a folder moved or removed whole.",
    },
    exclude: { ...search.exclude, description: "Globs to leave out, e.g. ['node_modules']." },
    respectIgnoreFiles: {
      type: "boolean",
      description: "Leave out what .gitignore and .ignore files say.",
    },
    includeVcs: {
      type: "boolean",
      default: false,
      description: "Also changes inside .git, .hg, .svn and .jj folders.",
    },
    limit: { ...search.limit, description: "Changes per page, 1 to 1000." },
    cursor: {
      type: "string",
      description: "The previous answer's nextCursor (same other arguments).",
    },
  },
  required: ["since"],
} as const;

/** Its outputSchema (contract §24, §24a), with the words of contract §4. */
export const CHANGES_OUTPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...WORDS_SCHEMA,
    clock: CLOCK_SCHEMA,
    since: TIME,
    freshInstance: {
      type: "boolean",
      description: "true: no removals or renames can be known ('reason').",
    },
    complete: { type: "boolean" },
    reason: { type: "string" },
    changes: {
      type: "array",
      items: {
        type: "object",
        properties: {
          path: { type: "string" },
          change: { type: "string", enum: ["created", "modified", "removed", "renamed"] },
          isDirectory: { type: "boolean" },
          sizeBytes: nullable(COUNT),
          modifiedAt: nullable(TIME),
          createdAt: nullable(TIME),
          previousPath: { type: "string" },
          entries: { ...COUNT, description: "A folder moved or removed whole: what it held." },
        },
        required: ["path", "change", "isDirectory", "sizeBytes", "modifiedAt", "createdAt"],
      },
    },
    nextCursor: nullable({ type: "string" }),
    stats: {
      type: "object",
      properties: {
        ...Object.fromEntries(
          [
            "returned",
            "elapsedMs",
            "totalChanges",
            "excluded",
          ].map((name) => [name, COUNT]),
        ),
        truncated: { type: "boolean" },
      },
      required: ["returned", "elapsedMs"],
    },
    ...SERVER_CLOCK_SCHEMA,
  },
  required: ["clock", "since", "freshInstance", "complete", "changes", "nextCursor", "stats"],
} as const;

const DESCRIPTION = [
  "What changed since: files and folders created, modified, renamed or removed (deleted) under an allowed root since an earlier answer or a time, e.g. after a build, a git checkout or an npm install.",
  "Every answer has a 'clock': pass it as 'since' for exactly what changed after that answer, each entry once; the answer's own 'clock' is the next.",
  "Examples: {since: '<clock>'}; {since: '2h'}; {since: '<clock>', includeDirectories: true}: a folder moved or removed whole is one entry.",
  "When the server cannot know (freshInstance: true), it lists what was modified or created since, no removals. In path order; page with 'nextCursor'.",
].join(" ");

/** The tool as `tools/list` publishes it. */
export const CHANGES_TOOL: Tool = {
  name: CHANGES_TOOL_NAME,
  title: "What changed recently: files created, modified, renamed or removed",
  description: DESCRIPTION,
  inputSchema: CHANGES_INPUT_SCHEMA as unknown as Tool["inputSchema"],
  outputSchema: CHANGES_OUTPUT_SCHEMA as unknown as NonNullable<Tool["outputSchema"]>,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};
