/**
 * Spawns the real server over stdio and drives it with the SDK `Client`.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ENV_VARIABLES } from "../../src/config.ts";
import { ALLOW_WRITE, V8_FLAGS } from "../../src/runtime_flags.ts";
import type { TestSeam } from "./seam.ts";
import type { Staged } from "./nobody.ts";
import { childEnv, runDeno } from "./spawn.ts";

/** How much of the server's stderr a connection keeps (its last characters). */
const STDERR_TAIL = 16_000;

/** The server's entry module. */
export const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
/** The same server with its workers reading through a test seam (seam_main.ts). */
const SEAM_MAIN = fileURLToPath(new URL("./seam_main.ts", import.meta.url));
/**
 * What `fs.list_roots` says of sharing for a server started without `--allow-net` (the
 * tests' servers, unless TEST_SHARED_INDEX=1): why its indexes are its own (contract §28).
 */
export const NOT_SHARED = {
  reason: Deno.build.os === "windows"
    ? "Deno has no unix sockets on Windows"
    : "the server may not use sockets (--allow-net)",
};

/** TEST_SHARED_INDEX=1: every server shares its indexes (the suite run as clients run it). */
export const SHARING = Deno.env.get("TEST_SHARED_INDEX") === "1";

/**
 * A root's index facts with what they say of sharing as the plain suite's servers say it:
 * tests of other things assert the same with TEST_SHARED_INDEX=1 (tests/shared asserts it).
 */
export function sharingAside<T extends object>(index: T): T {
  return SHARING ? { ...index, shared: NOT_SHARED } : index;
}

/** The flags of `deno task start`. */
export const SERVER_ARGS = [
  "run",
  "--quiet",
  V8_FLAGS,
  "--allow-read",
  ALLOW_WRITE,
  `--allow-env=${ENV_VARIABLES.join(",")}`,
  MAIN,
];
const SEAM_SERVER_ARGS = [
  ...SERVER_ARGS.slice(0, -2),
  `--allow-env=${[...ENV_VARIABLES, "FILE_TIME_SEARCH_TEST_SEAM"].join(",")}`,
  SEAM_MAIN,
];

/** A connected client and the running server. */
export interface Connection {
  client: Client;
  /** The server's process id (to read what it holds from `/proc`). */
  pid: number | null;
  /** The last lines the server wrote to stderr (its logs; a fatal error's line, if it died). */
  stderrTail(): string;
  /** Calls fs.search_by_time. */
  search(args: unknown): Promise<CallToolResult>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts the server with `env` and connects a client; `tools/list` is called first, so
 * the client validates `structuredContent` against the published outputSchema.
 */
export async function connect(
  env: Record<string, string>,
  seam?: TestSeam,
  args: string[] = [],
  /** Other V8 flags than the start task's (a smaller heap, say). */
  v8Flags: string = V8_FLAGS,
  /** Flags of the start task's to leave out (`--allow-write=/tmp`, say). */
  without: readonly string[] = [],
  /** Run as an unprivileged user, from what `stageForNobody` copied (nobody.ts). */
  as?: Staged,
  /** Flags besides the tests' (`--allow-net` and `--allow-run`: shared indexes, sessions.ts). */
  extra: readonly string[] = [],
): Promise<Connection> {
  const serverArgs = (seam ? SEAM_SERVER_ARGS : SERVER_ARGS)
    .filter((a) => !without.includes(a))
    .map((a) => a === V8_FLAGS ? v8Flags : as && a === MAIN ? as.main : a);
  const shared = SHARING && !extra.includes("--allow-net");
  serverArgs.splice(1, 0, ...extra, ...(shared ? ["--allow-net", "--allow-run"] : []));
  const transport = new StdioClientTransport({
    command: as?.command ?? Deno.execPath(),
    args: [...(as?.prefix ?? []), ...serverArgs, ...args],
    // The SDK adds HOME, PATH and a few more of its own (getDefaultEnvironment).
    env: childEnv({
      ...(shared ? { SHARED_INDEX_IDLE: "0" } : {}),
      ...env,
      ...(seam ? { FILE_TIME_SEARCH_TEST_SEAM: JSON.stringify(seam) } : {}),
      ...(as ? { DENO_DIR: as.denoDir } : {}),
    }),
    ...(as ? { cwd: as.cwd } : {}),
    stderr: "pipe",
  });
  // Kept short, and always read, so that a server that logs a lot never blocks on it.
  let tail = "";
  transport.stderr?.on("data", (chunk: Uint8Array | string) => {
    tail = (tail + (typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk)))
      .slice(-STDERR_TAIL);
  });
  const client = new Client({ name: "fts-test", version: "0.0.0" });
  await client.connect(transport);
  await client.listTools();
  const close = () => client.close();
  return {
    client,
    pid: transport.pid,
    stderrTail: () => tail,
    search: (args) =>
      client.callTool({
        name: env.TOOL_NAMES === "underscore" ? "fs_search_by_time" : "fs.search_by_time",
        arguments: args as Record<string, unknown>,
      }) as Promise<
        CallToolResult
      >,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** The text of a result's content item. */
export function textOf(result: CallToolResult, index = 0): string {
  const item = result.content[index];
  if (item?.type !== "text") throw new Error(`content[${index}] is not text`);
  return item.text;
}

/** Runs the server on raw stdio: writes `chunks` to its stdin, closes it, and collects stdout. */
export async function rawSession(
  root: string,
  chunks: string[],
): Promise<{ code: number; stdout: string }> {
  const { code, stdout } = await runDeno(SERVER_ARGS, {
    env: { ALLOW_ROOTS: root },
    input: chunks.join(""),
  });
  return { code, stdout };
}

/** A root's live index as `fs.list_roots` reports it (`undefined` with `INDEX=off`). */
export interface RootIndexInfo {
  state: string;
  entries: number;
  reason?: string;
  /** The root's calls by who answered them (absent from a server that does not say). */
  answers?: { index: number; walk: number };
  /** Why the last call that walked did. */
  lastWalk?: string;
  /** When the index was last checked whole on disk. */
  checkedWhole?: string;
  checkEnded?: string;
  /** Folders its watch leaves out, and why (contract §18). */
  readFromDisk?: { folders: number; linksOut: number; specialFiles: number };
  /** What it costs: watches held and bytes (contract §4). */
  watches?: number;
  memoryBytes?: number;
  /** Its journal of changes (contract §24). */
  journal?: { position: number; start: number | null; steps: number; memoryBytes: number };
}

/** The first root's live index, from `fs.list_roots`. */
export async function rootIndex(conn: Connection): Promise<RootIndexInfo> {
  const result = await conn.client.callTool({ name: "fs.list_roots", arguments: {} });
  return (result.structuredContent as { roots: { index: RootIndexInfo }[] }).roots[0]!.index;
}
