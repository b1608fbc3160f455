/**
 * Tool `fs.list_roots`: the allowed roots and which one is the default, so that a
 * model knows what it may pass as `root`. Read-only; it reveals the roots on purpose
 * (they are what `root` must name), which error messages never do.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../config.ts";
import type { IndexStatus } from "../index/mod.ts";
import { serverClock, serverTime } from "../presentation.ts";
import { CLOCK_SCHEMA, nullable, SERVER_CLOCK_SCHEMA } from "./tool_schema.ts";

/** The tool's stable name. */
export const LIST_ROOTS_TOOL_NAME = "fs.list_roots";

/** The tool as `tools/list` publishes it. */
export const LIST_ROOTS_TOOL: Tool = {
  name: LIST_ROOTS_TOOL_NAME,
  title: "List the folders searched for recent files",
  description:
    "List the folders fs.search_by_time may search for recent, recently changed, newest or latest files by modified or created time, and the server's current time and time zone (what 'today', 'this week' and 'within' are counted in). Pass one of the folders, exactly as listed, as its 'root' (or omit 'root' to use the default). Also says, per folder, whether its live index is ready and what it costs (watches, memory), and the server's memory.",
  inputSchema: { type: "object", additionalProperties: false, properties: {} },
  outputSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      summary: {
        type: "string",
        description: "The one-line summary: how many folders, the default, the server time.",
      },
      roots: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          properties: {
            path: { type: "string" },
            isDefault: { type: "boolean" },
            clock: CLOCK_SCHEMA,
            index: {
              type: "object",
              additionalProperties: false,
              description:
                "The live index of this root: 'ready' (answers come from memory), 'building' (being filled; 'entries' so far; calls walk meanwhile), 'starting' (its watch is being set up) or 'off' (plain walks; 'reason' says why: 'INDEX=off' when the server was started without an index). 'answers' counts this root's calls by who answered them; 'lastWalk' says why the last call that walked did; 'checkedWhole': every folder and entry the index holds was checked on disk at or after this time, by the background check's round that ended at 'checkEnded'.",
              properties: {
                state: { type: "string", enum: ["off", "starting", "building", "ready"] },
                entries: { type: "integer", minimum: 0 },
                reason: { type: "string" },
                answers: {
                  type: "object",
                  additionalProperties: false,
                  properties: {
                    index: { type: "integer", minimum: 0 },
                    walk: { type: "integer", minimum: 0 },
                  },
                  required: ["index", "walk"],
                },
                lastWalk: { type: "string" },
                checkedWhole: { type: "string", format: "date-time" },
                checkEnded: { type: "string", format: "date-time" },
                readFromDisk: {
                  type: "object",
                  additionalProperties: false,
                  description:
                    "Folders this root's watch leaves out, read from disk by every call instead of from memory, and why: links to folders outside the root, and FIFOs or device files (which the system's watcher would open), found in them or below them. Absent when none.",
                  properties: {
                    folders: { type: "integer", minimum: 0 },
                    linksOut: { type: "integer", minimum: 0 },
                    specialFiles: { type: "integer", minimum: 0 },
                  },
                  required: ["folders", "linksOut", "specialFiles"],
                },
                watches: {
                  type: "integer",
                  minimum: 0,
                  description:
                    "File-system watches the index holds for this root (one per folder watched), as of its last answer.",
                },
                memoryBytes: {
                  type: "integer",
                  minimum: 0,
                  description:
                    "Bytes the root's index holds (its worker's heap in use and its columns), as of its last answer.",
                },
                journal: {
                  type: "object",
                  additionalProperties: false,
                  description:
                    "The journal fs.changes_since answers from, as of the index's last answer: its position now, the first one it answers exactly (null: none yet), the changes it keeps and their memory.",
                  properties: {
                    position: { type: "integer", minimum: 0 },
                    start: nullable({ type: "integer", minimum: 0 }),
                    steps: { type: "integer", minimum: 0 },
                    memoryBytes: { type: "integer", minimum: 0 },
                  },
                  required: ["position", "start", "steps", "memoryBytes"],
                },
              },
              required: ["state", "entries", "answers"],
            },
          },
          required: ["path", "isDefault", "index"],
        },
      },
      ...SERVER_CLOCK_SCHEMA,
      memory: {
        type: "object",
        additionalProperties: false,
        description:
          "What the whole server process holds now: its resident memory (RSS) and the main heap in use, in bytes.",
        properties: {
          rssBytes: { type: "integer", minimum: 0 },
          heapBytes: { type: "integer", minimum: 0 },
        },
        required: ["rssBytes", "heapBytes"],
      },
    },
    required: ["roots", "serverTime", "timeZone"],
  },
  annotations: {
    title: "List the folders searched for recent files",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

/**
 * A root's index with `INDEX=off` (contract §18): off by setting, its calls counted as the
 * live index counts them (every one a walk); said, so that a client can tell it from a
 * server that says nothing.
 */
export function indexOff(counted: Pick<IndexStatus, "answers" | "lastWalk">): IndexStatus {
  return { state: "off", entries: 0, reason: "INDEX=off", ...counted };
}

/**
 * The result of `fs.list_roots`: each root with its `index`, one per root, and what the
 * server process holds (`memory`: contract §4, so that a user can ask why it is large).
 */
export function listRoots(
  config: Config,
  now: number,
  index: IndexStatus[],
  /** Each root's clock now (contract §24). */
  clocks: string[],
  memory: { rss: number; heapUsed: number } = Deno.memoryUsage(),
): CallToolResult {
  const roots = config.roots.map((r, i) => ({
    path: r.path,
    isDefault: r === config.defaultRoot,
    clock: clocks[i]!,
    index: index[i]!,
  }));
  const summary = `${roots.length} searchable folder${
    roots.length === 1 ? "" : "s"
  }; the default is ${config.defaultRoot.path}. ${serverTime(now)}`;
  const result = {
    summary,
    roots,
    ...serverClock(now),
    memory: { rssBytes: memory.rss, heapBytes: memory.heapUsed },
  };
  return {
    content: [
      { type: "text", text: summary },
      { type: "text", text: JSON.stringify(result) },
    ],
    structuredContent: result,
    isError: false,
  };
}
