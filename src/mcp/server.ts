/**
 * The MCP server: the low-level SDK `Server` with `tools/list` and `tools/call`
 * (contract §3). Unknown tools and malformed calls are JSON-RPC errors; everything
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
import { type Config, readablePaths } from "../config.ts";
import { ToolError } from "../errors.ts";
import { systemClock } from "../ports/mod.ts";
import { summaryLine } from "../presentation.ts";
import { wordsRoom } from "../result_words.ts";
import type { Guard } from "../security/mod.ts";
import { HungRoots, WorkerScanner } from "../workers/mod.ts";
import { Pager } from "../paging/mod.ts";
import {
  Answers,
  type IndexStatus,
  kernelQueueLimit,
  LiveIndex,
  makePrivateFolder,
  removePrivateFolder,
} from "../index/mod.ts";
import type { ScanProgress } from "../walk/mod.ts";
import { searchByTime, type SearchDeps } from "../search/mod.ts";
import { LineTransport } from "./line_transport.ts";
import { indexOff, LIST_ROOTS_TOOL, LIST_ROOTS_TOOL_NAME, listRoots } from "./list_roots.ts";
import { type Log, McpLog } from "./logging.ts";
import { errorResult, successResult } from "./result.ts";
import { SERVER_ICONS } from "./server_icon.ts";
import { calledTool, styledTools } from "./tool_names.ts";
import { SEARCH_TOOL, SEARCH_TOOL_NAME } from "./tool_schema.ts";

const TOOLS = [SEARCH_TOOL, LIST_ROOTS_TOOL];

export type { Log };

/** What the server needs. */
export interface ServerDeps extends SearchDeps {
  version: string;
  log: McpLog;
  /** Each root's live index, for `fs.list_roots` (absent with `INDEX=off`). */
  indexStatus?: () => IndexStatus[];
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

/**
 * Sends `notifications/progress` for a call that asked for it (contract §12).
 * `flush()` waits until every one is sent: a client drops progress that arrives after
 * the call's answer, so the answer waits for them.
 */
function progressReporter(token: string | number | undefined, extra: HandlerExtra): {
  report?: (progress: ScanProgress) => void;
  flush(): Promise<unknown>;
} {
  if (token === undefined) return { flush: () => Promise.resolve() };
  const sent: Promise<void>[] = [];
  return {
    report: ({ scanned, files, directories }) => {
      sent.push(
        extra.sendNotification({
          method: "notifications/progress",
          params: {
            progressToken: token,
            progress: scanned,
            message: `Scanning: ${files} files and ${directories} folders so far.`,
          },
        }).catch(() => {}), // the client may be gone; the call's own answer reports that
      );
    },
    flush: () => Promise.all(sent),
  };
}

/** Creates the server; connect it to a transport to serve. */
export function createServer(deps: ServerDeps): Server {
  const server: Server = new Server(
    {
      name: "file-time-search",
      title: "File Time Search",
      version: deps.version,
      icons: SERVER_ICONS,
    },
    { capabilities: { tools: { listChanged: false }, logging: {} } },
  );
  const { log } = deps;
  log.attach(server);
  const { limits } = deps.config;
  log.startup(
    `file-time-search ${deps.version}: ${deps.config.roots.length} root(s); limits: ${limits.maxFilesScanned} files, ${limits.maxDirectoriesScanned} folders, ${limits.scanTimeoutMs} ms, depth ${limits.maxDepth}, on limit: ${limits.onLimit}.`,
  );
  const published = styledTools(TOOLS, deps.config.toolNames);
  /** With `INDEX=off`, each root's calls (every one a walk), for `fs.list_roots`. */
  const offAnswers = deps.indexStatus ? null : new Answers(deps.config.roots.map((r) => r.path));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: published }));
  server.setRequestHandler(
    AnyToolCall,
    async (request: unknown, extra: HandlerExtra): Promise<CallToolResult> => {
      // The SDK has checked it against CallToolRequestSchema by now.
      const params = (request as { params: ToolCallParams }).params;
      const tool = calledTool(params.name, TOOLS);
      if (tool === LIST_ROOTS_TOOL_NAME) {
        const index = deps.indexStatus?.() ??
          deps.config.roots.map((r) => indexOff(offAnswers!.of(r.path)));
        return listRoots(deps.config, deps.clock.now(), index);
      }
      if (tool !== SEARCH_TOOL_NAME) {
        throw new McpError(RpcErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      }
      const progress = progressReporter(params._meta?.progressToken, extra);
      // When a cancel arrives, to say how soon the scan stopped after it (contract §12).
      let cancelledAt = 0;
      extra.signal.addEventListener("abort", () => (cancelledAt = deps.clock.now()), {
        once: true,
      });
      // Who answered (contract §18): the live index says; without one, every call walks.
      let answeredBy = deps.indexStatus ? "a walk" : "a walk (INDEX=off)";
      try {
        const result = await searchByTime(
          params.arguments,
          {
            ...deps,
            maxResultChars: deps.config.maxResultChars,
            wordsRoom: (request) => wordsRoom(request, deps.clock.now()),
          },
          extra.signal,
          progress.report,
          (by) => (answeredBy = by),
        );
        await progress.flush();
        for (const root of result.roots ?? [result.request.root.path]) {
          offAnswers?.walk(root, "INDEX=off");
        }
        const { stats } = result.output;
        log.log(
          "info",
          `search: ${
            summaryLine(result)
          } Scanned ${stats.scannedFiles} files in ${stats.scannedDirectories} folders, ${stats.elapsedMs} ms. Answered by ${answeredBy}.`,
        );
        return successResult(result, deps.clock.now());
      } catch (err) {
        if (err instanceof ToolError) {
          log.log("info", `search refused: ${err.code}.`);
          return errorResult(err, deps.clock.now());
        }
        if (extra.signal.aborted) {
          const ms = deps.clock.now() - cancelledAt;
          log.log("info", `search cancelled: its scan stopped ${ms} ms after the cancel.`);
          throw err;
        }
        log.log("error", `search failed: ${err instanceof Error ? err.name : "unknown"}`);
        return errorResult(
          new ToolError(
            "IOFailure",
            "The search failed unexpectedly.",
            "Retry in a moment, or narrow 'path'.",
          ),
          deps.clock.now(),
        );
      }
    },
  );
  return server;
}

/** Options of {@linkcode serve}. */
export interface ServeOptions {
  config: Config;
  version: string;
  /** Writes one line to stderr. */
  log: Log;
  /** Newline-delimited JSON-RPC in and out (stdin and stdout). */
  input: ReadableStream<Uint8Array>;
  output: WritableStream<Uint8Array>;
  /** The scan workers' entry module. Default: the real one. */
  workerUrl?: URL;
  /** Layer 1. Default: the strict guard. */
  guard?: Guard;
  /** The live index's watch worker module. Default: the real one. */
  watchWorkerUrl?: URL;
  /** The live index's index worker module. Default: the real one. */
  indexWorkerUrl?: URL;
}

/**
 * Serves MCP on `input`/`output` until the input ends and every request already read
 * is answered; then stops the scan workers.
 */
export async function serve(options: ServeOptions): Promise<void> {
  const { config, log, workerUrl, guard } = options;
  const mcpLog = new McpLog(log);
  const readPaths = readablePaths(config);
  // One memory of hung roots, whichever way a root is scanned (contract §19).
  const hungRoots = new HungRoots();
  const walk = new WorkerScanner({ readPaths, hungRoots, ...(workerUrl ? { workerUrl } : {}) });
  // With the index on, a root's scans are answered from memory once it is ready; `on`
  // starts every root's index now, `lazy` on the root's first call (contract §18). Its
  // barrier needs the server's private folder (§13), removed when the server stops.
  const cookies = config.index.mode !== "off"
    ? makePrivateFolder(config.roots.map((r) => r.realPath))
    : null;
  const removeCookies = () => cookies?.path && removePrivateFolder(cookies.path);
  globalThis.addEventListener("unload", removeCookies);
  const index = cookies
    ? new LiveIndex(walk, config.roots, {
      readPaths,
      cookies,
      queueLimit: kernelQueueLimit(),
      hungRoots,
      eager: config.index.mode === "on",
      maxDepth: config.limits.maxDepth,
      maxEntries: config.index.maxEntries,
      log: mcpLog.log,
      ...(options.watchWorkerUrl ? { watchWorkerUrl: options.watchWorkerUrl } : {}),
      ...(options.indexWorkerUrl ? { indexWorkerUrl: options.indexWorkerUrl } : {}),
    })
    : null;
  const scanner = index ?? walk;
  const server = createServer({
    config,
    pager: new Pager({ scanner, clock: systemClock }),
    clock: systemClock,
    version: options.version,
    log: mcpLog,
    ...(index ? { indexStatus: () => index.status() } : {}),
    ...(guard ? { guard } : {}),
  });
  const transport = new LineTransport(options.input, options.output, { log });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  scanner.close();
  removeCookies();
  globalThis.removeEventListener("unload", removeCookies);
}
