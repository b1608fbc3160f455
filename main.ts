/**
 * file-time-search: an MCP server on stdio that finds files by modified or created
 * time inside the folders its user allows.
 *
 * With no arguments it serves MCP on stdio; with arguments it is the command line
 * (`file-time-search --help`). The only module that reads the environment, touches
 * stdio or exits.
 *
 * @module
 */
import denoJson from "./deno.json" with { type: "json" };
import { type CliIo, runCli } from "./src/cli/cli.ts";
import { ConfigError, loadConfig, readablePaths } from "./src/config.ts";
import { createServer, type Log } from "./src/mcp/server.ts";
import { LineTransport } from "./src/mcp/line_transport.ts";
import { systemClock } from "./src/search/clock.ts";
import { SnapshotCache } from "./src/search/snapshot_cache.ts";
import { disabledGuardForTests } from "./src/security/guard.ts";
import type { TestSeam } from "./src/search/test_seam.ts";
import { WORKER_URL, WorkerScanner } from "./src/search/scanner.ts";
import { fileURLToPath as fromFileUrl } from "node:url";

/** The scan worker's module: creating a worker needs read access to it. */
const WORKER_MODULE = fromFileUrl(WORKER_URL);

/** Test-only: JSON of a {@linkcode TestSeam}; read only where env access to it is granted. */
const SEAM_VARIABLE = "FILE_TIME_SEARCH_TEST_SEAM";

function readEnv(name: string): string | undefined {
  const state = Deno.permissions.querySync({ name: "env", variable: name }).state;
  return state === "granted" ? Deno.env.get(name) : undefined;
}

const log: Log = (level, message) => {
  console.error(`[file-time-search] ${level}: ${message}`);
};

/** The CLI's access to the process. */
function cliIo(): CliIo {
  const encoder = new TextEncoder();
  return {
    out: (text) => void Deno.stdout.writeSync(encoder.encode(text)),
    err: (text) => void Deno.stderr.writeSync(encoder.encode(text)),
    errIsTerminal: Deno.stderr.isTerminal(),
    env: readEnv,
    version: denoJson.version,
    clock: systemClock,
    scanner: (readPaths) => new WorkerScanner({ readPaths }),
  };
}

async function main(args: string[]): Promise<number> {
  if (args.length > 0) return await runCli(args, cliIo());
  return await serve();
}

async function serve(): Promise<number> {
  let config;
  try {
    config = loadConfig({ env: readEnv });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`file-time-search: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const readPaths = readablePaths(config);
  const unreadable = [WORKER_MODULE, ...readPaths].find((path) =>
    Deno.permissions.querySync({ name: "read", path }).state !== "granted"
  );
  if (unreadable !== undefined) {
    console.error(
      `file-time-search: --allow-read must cover ${
        unreadable === WORKER_MODULE
          ? "the server's own folder"
          : "every ALLOW_ROOTS entry and its real path"
      }: '${unreadable}' is not readable.`,
    );
    return 2;
  }
  const seamText = readEnv(SEAM_VARIABLE);
  const seam = seamText ? JSON.parse(seamText) as TestSeam : undefined;
  const scanner = new WorkerScanner({
    readPaths,
    ...(seam ? { seam } : {}),
  });
  const server = createServer({
    config,
    scanner,
    clock: systemClock,
    snapshots: new SnapshotCache(systemClock),
    version: denoJson.version,
    log,
    ...(seam?.disableGuard ? { guard: disabledGuardForTests } : {}),
  });
  const transport = new LineTransport(Deno.stdin.readable, Deno.stdout.writable, { log });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  scanner.close();
  return 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
