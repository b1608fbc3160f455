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
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type Config, readablePaths } from "../config.ts";
import { systemClock } from "../ports/mod.ts";
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
import type { SearchDeps } from "../search/mod.ts";
import { type Journals, newRunId, rootClock } from "../changes/mod.ts";
import { type ServiceCommand, SharedIndex, shareIndexes } from "../link/mod.ts";
import { LineTransport } from "./line_transport.ts";
import { indexOff, LIST_ROOTS_TOOL, LIST_ROOTS_TOOL_NAME, listRoots } from "./list_roots.ts";
import { type Log, McpLog } from "./logging.ts";
import { SERVER_ICONS } from "./server_icon.ts";
import { calledTool, styledResult, styledTools } from "./tool_names.ts";
import { SEARCH_TOOL } from "./search_tool.ts";
import { SEARCH_TOOL_NAME } from "./tool_schema.ts";
import { CHANGES_TOOL, CHANGES_TOOL_NAME } from "./changes_tool.ts";
import { changesCall, type HandlerExtra, searchCall, type ToolCallParams } from "./tool_calls.ts";

const TOOLS = [SEARCH_TOOL, CHANGES_TOOL, LIST_ROOTS_TOOL];

export type { Log };

/** What the server needs. */
export interface ServerDeps extends SearchDeps {
  version: string;
  log: McpLog;
  /** Each root's live index, for `fs.list_roots` (absent with `INDEX=off`). */
  indexStatus?: () => IndexStatus[] | Promise<IndexStatus[]>;
  /** This server run's id, which its clocks name (contract §24). */
  run: string;
  /** Each root's journal (absent with `INDEX=off`). */
  journals?: Journals;
}

/**
 * Any `tools/call` request reaches our handler; the SDK's `Server` then checks it
 * against `CallToolRequestSchema` itself and answers -32602 when it does not fit
 * (registering that schema directly would answer -32603 instead).
 */
const AnyToolCall = z.object({ method: z.literal("tools/call") }).passthrough();

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
      const styled = (result: CallToolResult) => styledResult(result, deps.config.toolNames);
      if (tool === LIST_ROOTS_TOOL_NAME) {
        const index = await deps.indexStatus?.() ??
          deps.config.roots.map((r) => indexOff(offAnswers!.of(r.path)));
        const now = deps.clock.now();
        const clocks = deps.config.roots.map((r) => rootClock(deps, r.path, now));
        return styled(listRoots(deps.config, now, index, clocks));
      }
      if (tool === CHANGES_TOOL_NAME) return styled(await changesCall(params, extra, deps));
      if (tool !== SEARCH_TOOL_NAME) {
        throw new McpError(RpcErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      }
      return styled(await searchCall(params, extra, deps, offAnswers));
    },
  );
  return server;
}

/** Options of {@linkcode serve}. */
export interface ServeOptions {
  config: Config;
  version: string;
  /** The program's build (contract §28a), which names its index services; `null`: unknown. */
  build?: string | null;
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
  /** How a root's index service is started (contract §28); none: each root's index is its own. */
  serviceCommand?: ServiceCommand;
  /** Called once the link to the services is made: main.ts drops `net` and `run`. */
  giveUp?: () => void;
  /** V8's heap limit of this process's isolates (bytes). Default: the start task's. */
  heapLimit?: number;
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
  const links = cookies && options.serviceCommand
    ? shareIndexes({
      config,
      version: options.version,
      build: options.build ?? null,
      log: (message: string) => mcpLog.log("info", message),
      privateFolder: cookies.path,
      command: options.serviceCommand,
      ...(options.giveUp ? { giveUp: options.giveUp } : {}),
    })
    : "this server starts no index services";
  const own = cookies
    ? new LiveIndex(walk, config.roots, {
      readPaths,
      cookies,
      queueLimit: kernelQueueLimit(),
      hungRoots,
      eager: config.index.mode === "on" && typeof links === "string",
      maxDepth: config.limits.maxDepth,
      maxEntries: config.index.maxEntries,
      changes: config.changes,
      log: mcpLog.log,
      ...(options.heapLimit ? { heapLimit: options.heapLimit } : {}),
      ...(options.watchWorkerUrl ? { watchWorkerUrl: options.watchWorkerUrl } : {}),
      ...(options.indexWorkerUrl ? { indexWorkerUrl: options.indexWorkerUrl } : {}),
    })
    : null;
  // Shared (contract §28): each root's calls go to its service where it can be had.
  const index = own && typeof links !== "string"
    ? new SharedIndex(
      config.roots.map((r) => r.path),
      links,
      own,
      walk,
      config.index.mode === "on",
      (message) => mcpLog.log("info", message),
    )
    : own;
  const notShared = typeof links === "string" ? { shared: { reason: links } } : {};
  if (typeof links === "string" && own && options.serviceCommand) {
    mcpLog.log("info", `index: each root's index is this server's own: ${links}.`);
  }
  const indexStatus = index instanceof SharedIndex
    ? () => index.status()
    : index
    ? () => index.status().map((status) => ({ ...status, ...notShared }))
    : null;
  const scanner = index ?? walk;
  const server = createServer({
    config,
    pager: new Pager({ scanner, clock: systemClock }),
    clock: systemClock,
    version: options.version,
    log: mcpLog,
    ...(index && indexStatus ? { indexStatus, journals: index } : {}),
    run: newRunId(),
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
