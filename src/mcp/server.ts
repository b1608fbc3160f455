/**
 * The MCP server: the low-level SDK `Server` with `tools/list` and `tools/call`
 * (DECISIONS §3). Unknown tools and malformed calls are JSON-RPC errors; everything
 * the tool itself rejects is an `isError` result.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/index.d.ts"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import {
  type CallToolResult,
  ErrorCode as RpcErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ToolError } from "../errors.ts";
import type { ScanProgress } from "../search/scan.ts";
import { searchByTime, type SearchDeps } from "../search/search_by_time.ts";
import { LIST_ROOTS_TOOL, LIST_ROOTS_TOOL_NAME, listRoots } from "./list_roots.ts";
import { type Log, McpLog } from "./logging.ts";
import { errorResult, successResult, summaryLine } from "./result.ts";
import { SEARCH_TOOL, SEARCH_TOOL_NAME } from "./tool_schema.ts";

export type { Log };

/** What the server needs. */
export interface ServerDeps extends SearchDeps {
  version: string;
  log: Log;
}

/**
 * Any `tools/call` request reaches our handler; the SDK's `Server` then checks it
 * against `CallToolRequestSchema` itself and answers -32602 when it does not fit
 * (registering that schema directly would answer -32603 instead).
 */
const AnyToolCall = z.object({ method: z.literal("tools/call") }).passthrough();

interface ToolCallParams {
  name: string;
  arguments?: unknown;
  _meta?: { progressToken?: string | number };
}

/** The parts of the SDK's request-handler context we use. */
interface HandlerExtra {
  signal: AbortSignal;
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

/** Sends `notifications/progress` for a call that asked for it (DECISIONS §12). */
function progressReporter(
  token: string | number | undefined,
  extra: HandlerExtra,
): ((progress: ScanProgress) => void) | undefined {
  if (token === undefined) return undefined;
  return ({ scanned, files, directories }) => {
    extra.sendNotification({
      method: "notifications/progress",
      params: {
        progressToken: token,
        progress: scanned,
        message: `Scanning: ${files} files and ${directories} folders so far.`,
      },
    }).catch(() => {}); // the client may be gone; the call's own answer reports that
  };
}

/** Creates the server; connect it to a transport to serve. */
export function createServer(deps: ServerDeps): Server {
  const server: Server = new Server(
    { name: "file-time-search", version: deps.version },
    { capabilities: { tools: { listChanged: false }, logging: {} } },
  );
  const log = new McpLog(deps.log);
  log.attach(server);
  const { limits } = deps.config;
  log.startup(
    `file-time-search ${deps.version}: ${deps.config.roots.length} root(s); limits: ${limits.maxFilesScanned} files, ${limits.maxDirectoriesScanned} folders, ${limits.scanTimeoutMs} ms, depth ${limits.maxDepth}, on limit: ${limits.onLimit}.`,
  );
  server.setRequestHandler(
    ListToolsRequestSchema,
    () => ({ tools: [SEARCH_TOOL, LIST_ROOTS_TOOL] }),
  );
  server.setRequestHandler(
    AnyToolCall,
    async (request: unknown, extra: HandlerExtra): Promise<CallToolResult> => {
      // The SDK has checked it against CallToolRequestSchema by now.
      const params = (request as { params: ToolCallParams }).params;
      if (params.name === LIST_ROOTS_TOOL_NAME) return listRoots(deps.config);
      if (params.name !== SEARCH_TOOL_NAME) {
        throw new McpError(RpcErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      }
      try {
        const result = await searchByTime(
          params.arguments,
          deps,
          extra.signal,
          progressReporter(params._meta?.progressToken, extra),
        );
        const { stats } = result.output;
        log.log(
          "info",
          `search: ${
            summaryLine(result)
          } Scanned ${stats.scannedFiles} files in ${stats.scannedDirectories} folders, ${stats.elapsedMs} ms.`,
        );
        return successResult(result, deps.clock.now());
      } catch (err) {
        if (err instanceof ToolError) {
          log.log("info", `search refused: ${err.code}.`);
          return errorResult(err);
        }
        if (extra.signal.aborted) throw err;
        log.log("error", `search failed: ${err instanceof Error ? err.name : "unknown"}`);
        return errorResult(
          new ToolError(
            "IOFailure",
            "The search failed unexpectedly.",
            "Retry in a moment, or narrow 'path'.",
          ),
        );
      }
    },
  );
  return server;
}
