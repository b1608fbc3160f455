/**
 * Whether a session's roots' indexes can be shared (contract §28), and its link to them:
 * `SHARED_INDEX` on, not Windows, the server allowed sockets (`--allow-net`) and to start
 * its own executable (`--allow-run`), a private folder (whose owner names the user), and a
 * socket folder that passes its check. Then the link worker is made, with exactly the
 * sockets of these roots and that executable, and the caller gives up `net` and `run`;
 * the session's scanner is then a `SharedIndex` over these links (shared_index.ts).
 *
 * @module
 */
import type { Config } from "../config.ts";
import { spawnLinkWorker } from "../workers/mod.ts";
import {
  checkSocketFolder,
  servicePaths,
  type ServiceSettings,
  socketFolderOf,
} from "../wire/mod.ts";
import type { LinkRoot } from "./link_messages.ts";
import { ServiceLinks } from "./service_links.ts";
import { serviceName } from "./service_name.ts";

/**
 * How a service is started for a set of roots (each root's real path, socket and service
 * name) by a session whose private folder is `privateFolder`: the arguments of this same
 * executable (no root's path among them, contract §28a); its settings go on its stdin.
 */
export type ServiceCommand = (
  roots: readonly { realPath: string; socket: string; name: string }[],
  tmp: string,
  privateFolder: string,
) => string[];

/** What {@linkcode shareIndexes} needs. */
export interface ShareOptions {
  config: Config;
  version: string;
  /** The program's build (wire/build.ts); `null` when it could not be told. */
  build: string | null;
  /** The server's private folder (made by it, so owned by its user). */
  privateFolder: string | null;
  command: ServiceCommand;
  /** Called once the link worker is made: the caller drops `net` and `run`. */
  giveUp?: () => void;
  /** The session's log. */
  log?: (message: string) => void;
  /** The link worker's module. Default: the real one. */
  linkWorkerUrl?: URL;
}

/** The longest socket path a unix socket takes (macOS's 104 bytes, less the NUL). */
const MAX_SOCKET_PATH = 103;

/** The session's links to its roots' index services, or why this server keeps its own index. */
export function shareIndexes(options: ShareOptions): ServiceLinks | string {
  const { config } = options;
  if (!config.shared.on) return "SHARED_INDEX=off";
  if (config.index.mode === "off") return "INDEX=off";
  if (Deno.build.os === "windows") return "Deno has no unix sockets on Windows";
  if (options.privateFolder === null) return "the server has no private folder";
  const build = options.build;
  if (build === null) return "the server's build could not be told (its code is not readable)";
  const place = socketFolderOf(options.privateFolder);
  if (typeof place === "string") return place;
  const { folder, uid } = place;
  const tmp = folder.slice(0, folder.lastIndexOf("/"));
  const privateFolder = options.privateFolder;
  const first = Deno.execPath();
  if (Deno.permissions.querySync({ name: "net" }).state !== "granted") {
    return "the server may not use sockets (--allow-net)";
  }
  if (Deno.permissions.querySync({ name: "run", command: first }).state !== "granted") {
    return "the server may not start its index services (--allow-run)";
  }
  const problem = checkSocketFolder(folder, uid);
  if (problem !== null) return problem;
  const settings = {
    maxEntries: config.index.maxEntries,
    maxDepth: config.limits.maxDepth,
    changes: config.changes,
  };
  const roots: (LinkRoot & { realPath: string })[] = [];
  for (const root of config.roots) {
    const name = serviceName(build, root.realPath, settings);
    const { socket } = servicePaths(folder, name);
    if (new TextEncoder().encode(socket).length > MAX_SOCKET_PATH) {
      return "the temp folder's path is too long for a socket";
    }
    roots.push({ socket, name, realPath: root.realPath });
  }
  // One service for the roots none answers for, the session's settings on its stdin.
  const startArgs = (which: readonly number[]): { args: string[]; input: string } => {
    const some = which.map((i) => roots[i]!);
    const service: ServiceSettings = {
      roots: some.map((r) => ({ root: r.realPath, name: r.name })),
      version: options.version,
      build,
      folder,
      idleMs: config.shared.idleMs,
      ...settings,
    };
    return { args: options.command(some, tmp, privateFolder), input: JSON.stringify(service) };
  };
  const sockets = roots.map((r) => r.socket);
  const worker = spawnLinkWorker(folder, sockets, first, options.linkWorkerUrl);
  options.giveUp?.();
  const setup = {
    folder,
    uid,
    version: options.version,
    build,
    roots: roots.map(({ socket, name }) => ({ socket, name })),
    command: first,
    idleMs: config.shared.idleMs,
  };
  return new ServiceLinks(setup, worker, {
    startArgs,
    ...(options.log ? { log: options.log } : {}),
  });
}
