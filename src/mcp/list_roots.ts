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
import { CLOCK_SCHEMA, COUNT, nullable, SERVER_CLOCK_SCHEMA, TIME } from "./tool_schema.ts";

/** An object of counts. */
function counts<const K extends string>(names: readonly K[]) {
  return {
    type: "object",
    properties: Object.fromEntries(names.map((n) => [n, COUNT])) as Record<K, typeof COUNT>,
  } as const;
}

/** The tool's stable name. */
export const LIST_ROOTS_TOOL_NAME = "fs.list_roots";

/** The tool as `tools/list` publishes it. */
export const LIST_ROOTS_TOOL: Tool = {
  name: LIST_ROOTS_TOOL_NAME,
  title: "List the folders searched for recent files",
  description:
    "The folders fs.search_by_time and fs.changes_since search for recent, recently changed, newest or latest files by modified or created time (pass one as 'root' exactly as listed, or omit it for the default), each with its 'clock' and its index's state; the server's time and zone (what 'today' and 'this week' are counted in).",
  inputSchema: { type: "object", additionalProperties: false, properties: {} },
  outputSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      summary: { type: "string" },
      roots: {
        type: "array",
        items: {
          type: "object",
          properties: {
            path: { type: "string" },
            isDefault: { type: "boolean" },
            clock: CLOCK_SCHEMA,
            index: {
              type: "object",
              description:
                "'ready': answers from memory; 'building', 'starting': calls walk meanwhile; 'off': 'reason' says why. 'readFromDisk': folders the watch leaves out.",
              properties: {
                state: { type: "string", enum: ["off", "starting", "building", "ready"] },
                entries: COUNT,
                reason: { type: "string" },
                answers: counts(["index", "walk"]),
                lastWalk: { type: "string" },
                checkedWhole: TIME,
                checkEnded: TIME,
                readFromDisk: counts(["folders", "linksOut", "specialFiles"]),
                watches: COUNT,
                memoryBytes: COUNT,
                journal: {
                  type: "object",
                  description:
                    "What fs.changes_since answers from ('start': the first position it answers exactly).",
                  properties: {
                    position: COUNT,
                    start: nullable(COUNT),
                    steps: COUNT,
                    memoryBytes: COUNT,
                  },
                },
              },
            },
          },
        },
      },
      ...SERVER_CLOCK_SCHEMA,
      memory: { ...counts(["rssBytes", "heapBytes"]), description: "The server process's." },
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
  // Every root named (contract §23a), the default first.
  const others = roots.filter((r) => !r.isDefault).map((r) => r.path);
  const summary = `${roots.length} searchable folder${
    roots.length === 1 ? "" : "s"
  }; the default is ${config.defaultRoot.path}${
    others.length ? `; also ${others.join(", ")}` : ""
  }.`;
  const result = {
    summary,
    roots,
    ...serverClock(now),
    memory: { rssBytes: memory.rss, heapBytes: memory.heapUsed },
  };
  return {
    content: [
      { type: "text", text: `${summary} ${serverTime(now)}` },
      { type: "text", text: JSON.stringify(result) },
    ],
    structuredContent: result,
    isError: false,
  };
}
