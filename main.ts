/**
 * file-time-search: an MCP server on stdio that finds files by modified or created
 * time inside the folders its user allows.
 *
 * With no arguments (the roots in `ALLOW_ROOTS`) or `serve DIR...` it serves MCP on
 * stdio; with other arguments it is the command line (`file-time-search --help`). The
 * only module that reads the environment, touches stdio or exits. Each of its modes loads
 * only its own modules (a dynamic import each): a service's isolate holds neither the MCP
 * SDK nor the command line, a session's not the service (docs/benchmarks.md).
 *
 * @module
 */
import denoJson from "./deno.json" with { type: "json" };
import type { CliIo } from "./src/cli/cli.ts";
import { matchersAtImport } from "./src/isolate_role.ts";
import type { Log } from "./src/mcp/server.ts";
import type { ServiceSettings } from "./src/wire/mod.ts";
import { V8_FLAGS } from "./src/runtime_flags.ts";
import { WORKER_MODULES } from "./src/worker_modules.ts";
import { fromFileUrl } from "./src/file_url.ts";

/** The workers' modules: creating a worker needs read access to its module. */
const WORKER_FILES = Object.values(WORKER_MODULES).map((url) => fromFileUrl(url));

function readEnv(name: string): string | undefined {
  const state = Deno.permissions.querySync({ name: "env", variable: name }).state;
  return state === "granted" ? Deno.env.get(name) : undefined;
}

const log: Log = (level, message) => {
  console.error(`[file-time-search] ${level}: ${message}`);
};

/** Whether this runs from source (`deno run main.ts`), not as a compiled binary. */
const FROM_SOURCE = /^deno(\.exe)?$/.test(Deno.execPath().split(/[\\/]/).pop() ?? "");

/** How a person runs this: the binary's own name, or the task when run from source. */
function programName(): string {
  return FROM_SOURCE
    ? `npx -y deno@${Deno.version.deno} task -q cli`
    : (Deno.execPath().split(/[\\/]/).pop() ?? "").replace(/\.exe$/, "");
}

/**
 * How an index service is started for some roots (contract §28, §28a): this same program
 * with `service` and the roots' service names (hashes: no path on a command line), its
 * settings on standard input. From source, with only what it needs, granted by a
 * permission set in a config file of the session's private folder (JSON lists: a path
 * holding a comma is granted as itself): read its roots, the server's code and the temp
 * folder (its private folder and its sockets), write the temp folder, and reach its roots'
 * sockets. A compiled binary has its flags built in; it gives up `net` and `run` once it
 * listens.
 */
function serviceCommand(
  roots: readonly { realPath: string; socket: string; name: string }[],
  tmp: string,
  privateFolder: string,
) {
  const names = roots.map((r) => r.name).join(",");
  if (!FROM_SOURCE) return ["service", names];
  const code = codeFolder();
  const config = `${privateFolder}/service-${roots[0]?.name ?? "none"}.json`;
  const read = [...roots.map((r) => r.realPath), code, tmp];
  if (Deno.build.os === "linux") read.push("/proc/sys/fs/inotify/max_queued_events");
  Deno.writeTextFileSync(
    config,
    JSON.stringify({
      imports: denoJson.imports,
      unstable: denoJson.unstable,
      lock: { path: `${code}/deno.lock`, frozen: true },
      permissions: {
        default: {
          read,
          write: [tmp],
          net: roots.map((r) => `unix:${r.socket}`),
        },
      },
    }),
    { mode: 0o600 },
  );
  return [
    "run",
    "--quiet",
    "--no-prompt",
    `--config=${config}`,
    "--permission-set",
    V8_FLAGS,
    fromFileUrl(import.meta.url),
    "service",
    names,
  ];
}

/** Drops the permissions only the link worker (or a service's listener) needed. */
function giveUpNetAndRun(): void {
  Deno.permissions.revokeSync({ name: "net" });
  Deno.permissions.revokeSync({ name: "run" });
}

/** The CLI's access to the process. */
async function cliIo(): Promise<CliIo> {
  const { systemClock } = await import("./src/ports/clock.ts");
  const { WorkerScanner } = await import("./src/workers/scanner.ts");
  const encoder = new TextEncoder();
  return {
    out: (text) => void Deno.stdout.writeSync(encoder.encode(text)),
    err: (text) => void Deno.stderr.writeSync(encoder.encode(text)),
    errIsTerminal: Deno.stderr.isTerminal(),
    env: readEnv,
    version: denoJson.version,
    program: programName(),
    clock: systemClock,
    scanner: (readPaths) => new WorkerScanner({ readPaths }),
  };
}

/** The folders of `serve DIR...` or `-- DIR...` (contract §20); null when `args` is a CLI command. */
function rootArguments(args: string[]): string[] | null {
  if (args.length === 0) return [];
  if (args[0] !== "serve" && args[0] !== "--") return null;
  const rest = args.slice(1);
  return rest[0] === "--" ? rest.slice(1) : rest;
}

/** The folder of the server's code (main.ts's). */
function codeFolder(): string {
  const main = fromFileUrl(import.meta.url);
  return main.slice(0, Math.max(main.lastIndexOf("/"), main.lastIndexOf("\\")));
}

/** A service's settings, as its session wrote them on stdin; `null` when they are not. */
async function serviceSettings(): Promise<ServiceSettings | null> {
  try {
    const settings = JSON.parse(await new Response(Deno.stdin.readable).text());
    return Array.isArray(settings?.roots) ? settings as ServiceSettings : null;
  } catch {
    return null;
  }
}

/** Ends a service as its idle end does on SIGTERM, SIGINT and SIGHUP (contract §28a). */
function stopSignal(): AbortSignal {
  const control = new AbortController();
  if (Deno.build.os !== "windows") {
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      Deno.addSignalListener(signal, () => control.abort(signal));
    }
  }
  return control.signal;
}

async function main(args: string[]): Promise<number> {
  if (args[0] === "service" && args.length === 2) {
    // A root's index service (contract §28), started by a session with its settings on stdin.
    const settings = await serviceSettings();
    if (settings === null) {
      console.error("file-time-search: a service is started by a session, its settings on stdin.");
      return 2;
    }
    // Its isolate matches nothing itself: no picomatch or `ignore`, so no Node layer.
    matchersAtImport.now = false;
    const { runService } = await import("./src/service/mod.ts");
    await runService(settings, {
      // From source its `net` is exactly its sockets, kept to listen again where a cleaner
      // removed one (socket_claim.ts); a compiled binary's is every host: given up.
      listening: FROM_SOURCE ? () => {} : giveUpNetAndRun,
      stopOn: stopSignal(),
    });
    return 0;
  }
  if (args[0] === "status" || args[0] === "stop") {
    // This user's index services: listed, or ended (contract §28a).
    const { out, err } = await cliIo();
    const { servicesCommand } = await import("./src/service/mod.ts");
    return await servicesCommand(args, { out, err });
  }
  const roots = rootArguments(args);
  if (roots === null) {
    const { runCli } = await import("./src/cli/cli.ts");
    return await runCli(args, await cliIo());
  }
  const { ConfigError, ENV_VARIABLES, envPermissionProblem, loadConfig, readablePaths } =
    await import("./src/config.ts");
  const envProblem = envPermissionProblem(
    ENV_VARIABLES.filter((variable) =>
      Deno.permissions.querySync({ name: "env", variable }).state !== "granted"
    ),
    roots.length > 0,
  );
  if (envProblem) {
    console.error(`file-time-search: ${envProblem.message}`);
    if (envProblem.fatal) return 2;
  }
  let config;
  try {
    config = loadConfig({ env: readEnv, roots });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`file-time-search: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const unreadable = [...WORKER_FILES, ...readablePaths(config)].find((path) =>
    Deno.permissions.querySync({ name: "read", path }).state !== "granted"
  );
  if (unreadable !== undefined) {
    console.error(
      `file-time-search: --allow-read must cover ${
        WORKER_FILES.includes(unreadable)
          ? "the server's own folder"
          : "every ALLOW_ROOTS entry and its real path"
      }: '${unreadable}' is not readable.`,
    );
    return 2;
  }
  // A stop by signal still ends through `unload`, which removes the server's private folder.
  if (Deno.build.os !== "windows") {
    Deno.addSignalListener("SIGINT", () => Deno.exit(130));
    Deno.addSignalListener("SIGTERM", () => Deno.exit(143));
  }
  const { serve } = await import("./src/mcp/server.ts");
  // A session loads Deno's Node layer anyway (the MCP SDK does); a service never does.
  const { getHeapStatistics } = await import("node:v8");
  const { buildOf } = await import("./src/wire/mod.ts");
  await serve({
    config,
    version: denoJson.version,
    build: config.shared.on ? await buildOf(denoJson.version, codeFolder()) : null,
    log,
    input: Deno.stdin.readable,
    output: Deno.stdout.writable,
    serviceCommand,
    giveUp: giveUpNetAndRun,
    heapLimit: getHeapStatistics().heap_size_limit,
  });
  return 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
