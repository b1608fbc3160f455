/**
 * Sessions whose roots' indexes are shared (contract §28): the real server, started as a
 * client starts it (with `--allow-net` and `--allow-run`, which let it reach and start its
 * index services), and the services it starts, found in `/proc` (Linux) by their command
 * line and ended (SIGTERM, as `stop` ends them) when a test ends, whatever it left behind.
 *
 * @module
 */
import assert from "node:assert/strict";
import { connect, type Connection, rootIndex, type RootIndexInfo, SHARING } from "./server.ts";
import { until } from "./until.ts";
import { watchedInodes } from "./inotify.ts";
import { makeTree, type TempTree, type TreeSpec } from "./tree.ts";
import type { Staged } from "./nobody.ts";
import { V8_FLAGS } from "../../src/runtime_flags.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { DEFAULT_CHANGES, DEFAULT_INDEX_MAX_ENTRIES, DEFAULT_LIMITS } from "../../src/config.ts";
import { servicePaths } from "../../src/wire/socket_folder.ts";
import { serviceName } from "../../src/link/service_name.ts";
import { buildOf } from "../../src/wire/build.ts";
import { sweepDead } from "../../src/service/socket_sweep.ts";
import { makePrivateFolder, removePrivateFolder } from "../../src/index/watch/private_folder.ts";

/** The build of this checkout, as its sessions name their services. */
export const BUILD: string = (await buildOf(
  denoJson.version,
  new URL("../..", import.meta.url).pathname.replace(/\/$/, ""),
))!;

/** Why shared-index tests cannot run here, or `null` (they read `/proc`). */
export const SHARED_SKIP: string | null = Deno.build.os !== "linux"
  ? "they find the index services in /proc (Linux)"
  : null;
if (SHARED_SKIP) console.log(`shared index tests skipped: ${SHARED_SKIP}`);

/**
 * A session on `root` (or on several roots; its services end with its last session unless
 * `env` says otherwise).
 */
export async function session(
  root: string | string[],
  env: Record<string, string> = {},
  as?: Staged,
): Promise<Connection> {
  return await connect(
    { SHARED_INDEX_IDLE: "0", INDEX: "on", ...env },
    undefined,
    ["serve", ...[root].flat()],
    V8_FLAGS,
    [],
    as,
    ["--allow-net", "--allow-run"],
  );
}

/** What a shell prints (Deno asks for every permission to read `/proc` itself). */
function shell(script: string): string {
  const out = new Deno.Command("sh", { args: ["-c", script], stdout: "piped", stderr: "null" })
    .outputSync();
  return new TextDecoder().decode(out.stdout);
}

/**
 * The process ids of the index services of `rootReal` (with the default settings, of any
 * build) now running: those whose command line names its service (never its path, contract
 * §28a), by the hash that ends the name.
 */
export function servicePids(rootReal: string): number[] {
  const hash = serviceNameOf(rootReal).slice(-17); // "-" and 16 hex digits
  const pids: number[] = [];
  for (const [pid, args] of commandLines()) {
    const at = args.indexOf("service");
    if (at >= 0 && args[at + 1]?.split(",").some((n) => n.endsWith(hash))) pids.push(pid);
  }
  return pids;
}

/** Every process's id and command line (read by a shell: Deno reads /proc only with -A). */
export function commandLines(): [number, string[]][] {
  // Each process: its id, NUL, its command line (NUL-separated), then \x01.
  const listing = shell(
    `for d in /proc/[0-9]*; do printf '%s\\0' "\${d#/proc/}"; cat "$d/cmdline" 2>/dev/null; printf '\\1'; done`,
  );
  const lines: [number, string[]][] = [];
  for (const record of listing.split("\x01")) {
    const [pid, ...args] = record.split("\0");
    if (pid) lines.push([Number(pid), args]);
  }
  return lines;
}

/**
 * The process that keeps the index of `conn`'s root at `root`: the server's, or when the
 * suite shares its indexes (TEST_SHARED_INDEX=1) the root's service (the one its session's
 * log says it started or joined).
 */
export function indexKeeper(conn: Connection, root: string): number {
  if (!SHARING) return conn.pid!;
  const said = [
    ...conn.stderrTail().matchAll(/ (?:started|joined) its index service \(pid (\d+)/g),
  ];
  const pid = Number(said.at(-1)?.[1]);
  if (commandLines().some(([p, args]) => p === pid && args.includes("service"))) return pid;
  const pids = servicePids(Deno.realPathSync(root));
  if (pids.length !== 1) throw new Error(`${pids.length} index services of the root`);
  return pids[0]!;
}

/**
 * Ends every index service of `rootReal` as `stop` would (SIGTERM: each removes its socket,
 * lock and private folder), killing one that has not ended within the bound of
 * {@linkcode until} (a test's end: none is left behind).
 */
export async function endServices(rootReal: string): Promise<void> {
  const pids = servicePids(rootReal);
  const signal = (pid: number, name: Deno.Signal) => {
    try {
      Deno.kill(pid, name);
    } catch { /* ended meanwhile */ }
  };
  for (const pid of pids) signal(pid, "SIGTERM");
  try {
    await until(() => !pids.some(alive), "the services to end on SIGTERM");
  } finally {
    for (const pid of pids.filter(alive)) signal(pid, "SIGKILL");
  }
}

/**
 * A temp tree (tree.ts) whose index services are ended when it is disposed, before it is
 * removed (unless the test removed it itself): whatever a test left running, none outlives it.
 */
export async function treeWithServices(spec: TreeSpec): Promise<TempTree> {
  const tree = await makeTree(spec);
  const remove = tree[Symbol.asyncDispose].bind(tree);
  return Object.assign(tree, {
    [Symbol.asyncDispose]: async () => {
      await endServices(tree.root);
      leftBySomeKilled();
      await remove().catch((err) => {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      });
    },
  });
}

/**
 * Removes what services and servers a test killed on purpose left (their sockets, locks and
 * private folders), as the next service would: only what no live process holds.
 */
function leftBySomeKilled(): void {
  sweepDead(servicePathsOf("/").folder, new Set());
  const made = makePrivateFolder([]); // which sweeps the private folders of dead processes
  if (made.path !== null) removePrivateFolder(made.path);
}

/** Whether process `pid` is running (not a zombie). */
export function alive(pid: number): boolean {
  const stat = shell(`cat /proc/${pid}/stat 2>/dev/null`);
  return stat !== "" && !/^\d+ \(.*\) Z/.test(stat);
}

/** The name of `rootReal`'s service with the default settings (socket_folder.ts). */
function serviceNameOf(rootReal: string): string {
  return serviceName(BUILD, rootReal, {
    maxEntries: DEFAULT_INDEX_MAX_ENTRIES,
    maxDepth: DEFAULT_LIMITS.maxDepth,
    changes: DEFAULT_CHANGES,
  });
}

/** The socket and lock of `rootReal`'s service with the default settings (socket_folder.ts). */
export function servicePathsOf(
  rootReal: string,
  uid = Deno.uid() ?? 0,
): { socket: string; lock: string; folder: string } {
  const folder = `/tmp/file-time-search-${uid}`;
  return { ...servicePaths(folder, serviceNameOf(rootReal)), folder };
}

/** The private folder of process `pid` (the one whose cookies it watches), or `null`. */
export function privateFolderOf(pid: number): string | null {
  const watched = watchedInodes(pid);
  for (const entry of Deno.readDirSync("/tmp")) {
    if (!entry.name.startsWith("file-time-search-")) continue;
    const folder = `/tmp/${entry.name}`;
    try {
      for (const sub of Deno.readDirSync(folder)) {
        if (watched.has(Deno.lstatSync(`${folder}/${sub.name}`).ino ?? -1)) return folder;
      }
    } catch { /* not a folder, or gone */ }
  }
  return null;
}

/** What a service made, found while it runs: its process, private folder, socket and lock. */
export interface ServiceMade {
  pid: number;
  folder: string;
  socket: string;
  lock: string;
}

/**
 * The service of `root` once a session with `SHARED_INDEX_IDLE=idle` saw it ready and ended:
 * its process, and the private folder, socket and lock it made.
 */
export async function lastSessionEnded(root: string, idle: string): Promise<ServiceMade> {
  const a = await session(root, { SHARED_INDEX_IDLE: idle });
  await readyShared(a);
  const [pid] = servicePids(root);
  const folder = privateFolderOf(pid!);
  assert.ok(folder, "the service's private folder, where it writes its cookies");
  const { socket, lock } = servicePathsOf(root);
  assert.ok(Deno.lstatSync(socket).isSocket);
  assert.ok(Deno.lstatSync(lock).isFile);
  await a.close();
  return { pid: pid!, folder, socket, lock };
}

/** Waits for the service to end, then finds nothing left of what it made. */
export async function endsLeavingNothing(service: ServiceMade): Promise<void> {
  await until(() => !alive(service.pid), "the service to end");
  assert.throws(() => Deno.lstatSync(service.folder), Deno.errors.NotFound);
  assert.throws(() => Deno.lstatSync(service.socket), Deno.errors.NotFound);
  assert.throws(() => Deno.lstatSync(service.lock), Deno.errors.NotFound);
}

/** A root's index as a session of a shared index reports it. */
export type Shared = RootIndexInfo & {
  shared?: { sessions?: number; since?: string; reason?: string; build?: string };
};

/** The session's view of its root's index once its service's index is ready. */
export async function readyShared(conn: Connection): Promise<Shared> {
  let index!: Shared;
  await until(async () => {
    index = await rootIndex(conn) as Shared;
    return index.state === "ready" && index.shared?.sessions !== undefined;
  }, "the shared index");
  return index;
}

/** This session's calls on its root, by who answered them (from `fs.list_roots`). */
export async function answeredBy(conn: Connection): Promise<{ index: number; walk: number }> {
  return (await rootIndex(conn)).answers!;
}
