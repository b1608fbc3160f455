/**
 * A root's index service (contract §28, §28a): one process per root, user, build and index
 * settings, started detached by the first session that needs it, which keeps the root's
 * live index and journal and answers every session's calls on that root over a unix socket
 * in the user's socket folder. It holds the lock beside its socket for its whole life (a
 * second one started at the same instant finds it held and ends; a lock whose file was
 * removed under it is taken again), takes over a socket file left by one that died and
 * removes what other dead services left (socket_sweep.ts), and ends `idleMs` after its last
 * session (0: with it), while it has no session as soon as its root is gone, when told to
 * stop, or when `stopOn` is aborted (main.ts: SIGTERM, SIGINT, SIGHUP), each end removing
 * its socket, its lock and its private folder.
 *
 * @module
 */
import type { Root } from "../config.ts";
import {
  kernelQueueLimit,
  LiveIndex,
  makePrivateFolder,
  removePrivateFolder,
} from "../index/mod.ts";
import { newRunId } from "../changes/mod.ts";
import type { Scanner } from "../workers/mod.ts";
import { serveSession, WalkInSession } from "./service_session.ts";
import {
  type ServiceAbout,
  type ServiceFacts,
  servicePaths,
  type ServiceSettings,
  TURN_WAIT_MS,
} from "../wire/mod.ts";
import { holdLock, sweepDead } from "./socket_sweep.ts";

/** How often a service with no session looks whether its root is still there. */
const LOOK_MS = 1000;

/** Whether the folder at `path` is gone (one `lstat`; any other failure is not "gone"). */
function rootGone(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return false;
  } catch (err) {
    return err instanceof Deno.errors.NotFound;
  }
}

/** How long a service waits for its first session before it ends. */
const FIRST_SESSION_MS = 30_000;

/** Runs the service until it ends; resolves with why it ended (for its exit). */
export async function runService(
  settings: ServiceSettings,
  options: {
    log?: (line: string) => void;
    /** Called once it listens: main.ts drops `net` and `run` (a compiled binary has both). */
    listening?: () => void;
    /** Ends the service as its idle end does (main.ts: on SIGTERM, SIGINT and SIGHUP). */
    stopOn?: AbortSignal;
  } = {},
): Promise<string> {
  const log = options.log ?? (() => {});
  const { socket, lock } = servicePaths(settings.folder, settings.name);
  const held = await holdLock(lock);
  if (held === null) return "another service holds the lock";
  try {
    // Holding the lock, a socket file there was left by a service that died.
    try {
      if (Deno.lstatSync(socket).isSocket) Deno.removeSync(socket);
    } catch { /* none */ }
    const listener = Deno.listen({ transport: "unix", path: socket });
    Deno.chmodSync(socket, 0o600);
    options.listening?.();
    sweepDead(settings.folder, settings.name);
    return await serveUntilIdle(listener, settings, log, options.stopOn);
  } finally {
    held.release(); // its file removed, then the lock let go
  }
}

async function serveUntilIdle(
  listener: Deno.Listener,
  settings: ServiceSettings,
  log: (line: string) => void,
  stopOn: AbortSignal | undefined,
): Promise<string> {
  const root: Root = { path: settings.root, realPath: settings.root };
  const cookies = makePrivateFolder([root.realPath]);
  const standIn: Scanner = { run: () => Promise.reject(new WalkInSession()), close() {} };
  const index = new LiveIndex(standIn, [root], {
    readPaths: [root.realPath],
    cookies,
    queueLimit: kernelQueueLimit(),
    eager: true,
    maxEntries: settings.maxEntries,
    maxDepth: settings.maxDepth,
    changes: settings.changes,
    // Sessions wait for the index rather than walk while other sessions' calls are on it
    // (answers take milliseconds; a walk of a large root takes seconds and slows them all).
    waitMs: TURN_WAIT_MS,
    log: (_level, message) => log(message),
  });
  const startedAt = Date.now();
  const run = newRunId();
  let sessions = 0;
  let ended = (_why: string) => {};
  const end = new Promise<string>((resolve) => (ended = resolve));
  const stopped = () => ended(`stopped (${String(stopOn?.reason ?? "a signal")})`);
  if (stopOn?.aborted) stopped();
  stopOn?.addEventListener("abort", stopped, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idleEndsAt: number | null = null;
  // With no session, a root that is gone (a temp folder removed) ends the service at once:
  // nobody will ask for it again, and each one left costs a process for its idle time.
  let looking: ReturnType<typeof setInterval> | undefined;
  const idle = (ms: number) => {
    clearTimeout(timer);
    clearInterval(looking);
    idleEndsAt = Date.now() + ms;
    timer = setTimeout(() => ended("no session for the idle time"), ms);
    looking = setInterval(() => rootGone(root.realPath) && ended("its root is gone"), LOOK_MS);
  };
  const busy = () => {
    clearTimeout(timer);
    clearInterval(looking);
    idleEndsAt = null;
  };
  idle(Math.max(settings.idleMs, FIRST_SESSION_MS));
  const facts = (): ServiceFacts => ({
    pid: Deno.pid,
    build: settings.build,
    run,
    startedAt,
    sessions,
    idleMs: settings.idleMs,
  });
  const about = (): ServiceAbout => {
    const { state, entries } = index.status()[0]!;
    return {
      ...facts(),
      version: settings.version,
      root: root.realPath,
      state,
      entries,
      memoryBytes: Deno.memoryUsage().rss,
      idleEndsAt,
    };
  };
  const accepting = (async () => {
    for await (const conn of listener) {
      void serveSession(conn, {
        index,
        root,
        version: settings.version,
        build: settings.build,
        name: settings.name,
        facts,
        about,
        log,
        stop: () => ended("told to stop"),
        joined: () => {
          sessions++;
          busy();
        },
        left: () => {
          if (--sessions > 0) return;
          if (settings.idleMs === 0) ended("its last session ended");
          else idle(settings.idleMs);
        },
      });
    }
  })().catch(() => {});
  const why = await end;
  busy();
  stopOn?.removeEventListener("abort", stopped);
  listener.close(); // removes the socket file
  await accepting;
  index.close();
  if (cookies.path !== null) removePrivateFolder(cookies.path);
  log(`ended: ${why}`);
  return why;
}
