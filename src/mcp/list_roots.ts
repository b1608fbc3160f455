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
import { CLOCK_SCHEMA, COUNT, nullable, TIME } from "./tool_schema.ts";

/** `schema` with a description (every field of the output is described, contract §23a). */
function said<const T extends Record<string, unknown>>(description: string, schema: T) {
  return { ...schema, description } as const;
}

/** A closed object (`additionalProperties: false`) of described fields. */
function fields<const P extends Record<string, unknown>>(description: string, properties: P) {
  return { type: "object", additionalProperties: false, description, properties } as const;
}

const count = (description: string) => said(description, COUNT);
const STRING = { type: "string" } as const;

/** The tool's stable name. */
export const LIST_ROOTS_TOOL_NAME = "fs.list_roots";

/** The tool as `tools/list` publishes it. */
export const LIST_ROOTS_TOOL: Tool = {
  name: LIST_ROOTS_TOOL_NAME,
  title: "List the folders searched for recent files",
  description:
    "The folders searched for recent, recently changed, newest or latest files by modified or created time: pass one as 'root', or omit it for the default. Each with its 'clock' and index; the server's time and zone, where 'today' and 'this week' are counted.",
  inputSchema: { type: "object", additionalProperties: false, properties: {} },
  outputSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      summary: said("Every root named.", STRING),
      roots: {
        type: "array",
        description: "The default first.",
        items: fields("A root.", {
          path: said("Pass as 'root'.", STRING),
          isDefault: said("Used when 'root' is left out.", { type: "boolean" }),
          clock: CLOCK_SCHEMA,
          index: fields("Its live index.", {
            state: said("'ready': answers from memory; else calls walk ('off': see 'reason').", {
              type: "string",
              enum: ["off", "starting", "building", "ready"],
            }),
            entries: count("Held (building: read so far)."),
            reason: said("Why off, or built again.", STRING),
            answers: fields("Calls so far, by who answered.", {
              index: count("From memory."),
              walk: count("By a walk."),
            }),
            lastWalk: said("Why the last walk.", STRING),
            checkedWhole: said("All checked on disk since (UTC).", STRING),
            checkEnded: said("That check's end.", STRING),
            readFromDisk: fields("Folders left unwatched.", {
              folders: count("How many."),
              linksOut: count("Links out met."),
              specialFiles: count("FIFOs, devices met."),
            }),
            watches: count("Folders watched."),
            memoryBytes: count("Its size where it is held."),
            journal: fields("What fs.changes_since answers from.", {
              position: count("Changes so far."),
              start: said("First answered exactly.", nullable(COUNT)),
              steps: count("Kept."),
              memoryBytes: count("Its size."),
            }),
            shared: fields("Its index service, or why not ('reason').", {
              sessions: count("Sessions now."),
              since: said("Its start.", STRING),
              build: said("Version+code digest.", STRING),
              rssBytes: count("Its process's RSS."),
              reason: said("Why not shared now.", STRING),
            }),
          }),
        }),
      },
      serverTime: said("Now (UTC).", TIME),
      timeZone: fields("Where 'today' is counted.", {
        name: said("IANA name.", STRING),
        offset: said("Offset now.", STRING),
      }),
      memory: fields("This session's process.", {
        rssBytes: count("Resident."),
        heapBytes: count("JS heap used."),
      }),
    },
    required: ["roots", "serverTime", "timeZone"],
  },
  annotations: {
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
