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
import { formatTime, localTime, serverTimeZone } from "../query/mod.ts";
import { serverTime } from "../presentation.ts";

/** The tool's stable name. */
export const LIST_ROOTS_TOOL_NAME = "fs.list_roots";

/** The tool as `tools/list` publishes it. */
export const LIST_ROOTS_TOOL: Tool = {
  name: LIST_ROOTS_TOOL_NAME,
  title: "List searchable folders",
  description:
    "List the folders fs.search_by_time may search, and the server's current time and time zone (what 'today' and 'within' are counted in). Pass one of the folders, exactly as listed, as its 'root' (or omit 'root' to use the default).",
  inputSchema: { type: "object", additionalProperties: false, properties: {} },
  outputSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      roots: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          properties: {
            path: { type: "string" },
            isDefault: { type: "boolean" },
            index: {
              type: "object",
              additionalProperties: false,
              description:
                "The live index of this root: 'ready' (answers come from memory), 'building' (being filled; 'entries' so far; calls walk meanwhile), 'starting' (its watch is being set up) or 'off' (plain walks; 'reason' says why: 'INDEX=off' when the server was started without an index). 'answers' counts this root's calls by who answered them; 'lastWalk' says why the last call that walked did; 'checkedWhole': every folder and entry the index holds was checked on disk at or after this time.",
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
              },
              required: ["state", "entries", "answers"],
            },
          },
          required: ["path", "isDefault", "index"],
        },
      },
      serverTime: {
        type: "string",
        format: "date-time",
        description: "The server's current time (UTC).",
      },
      timeZone: {
        type: "object",
        additionalProperties: false,
        description:
          "The server's time zone: 'period' and 'within' are counted in it. IANA name and current offset.",
        properties: {
          name: { type: "string" },
          offset: { type: "string" },
        },
        required: ["name", "offset"],
      },
    },
    required: ["roots", "serverTime", "timeZone"],
  },
  annotations: {
    title: "List searchable folders",
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

/** The result of `fs.list_roots`: each root with its `index`, one per root. */
export function listRoots(config: Config, now: number, index: IndexStatus[]): CallToolResult {
  const roots = config.roots.map((r, i) => ({
    path: r.path,
    isDefault: r === config.defaultRoot,
    index: index[i]!,
  }));
  const name = serverTimeZone();
  const { offset } = localTime(now, name);
  const result = { roots, serverTime: formatTime(now), timeZone: { name, offset } };
  const summary = `${roots.length} searchable folder${
    roots.length === 1 ? "" : "s"
  }; the default is ${config.defaultRoot.path}. ${serverTime(now)}`;
  return {
    content: [
      { type: "text", text: summary },
      { type: "text", text: JSON.stringify(result) },
    ],
    structuredContent: result,
    isError: false,
  };
}
