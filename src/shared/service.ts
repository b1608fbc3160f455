/**
 * A root's index service (contract §28): one process per root, user, version and index
 * settings, started detached by the first session that needs it, which keeps the root's
 * live index and journal and answers every session's calls on that root over a unix socket
 * in the user's socket folder. It holds the lock beside its socket for its whole life (a
 * second one started at the same instant finds it held and ends), takes over a socket file
 * left by one that died, and ends `idleMs` after its last session (0: with it), or while it
 * has no session as soon as its root is gone, removing its socket and its private folder.
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
import { servicePaths } from "./socket_folder.ts";
import { type ServiceFacts, TURN_WAIT_MS } from "./wire.ts";

/** What a service is started with (its command line, as JSON). */
export interface ServiceSettings {
  /** The root's real path. */
  root: string;
  version: string;
  /** Its name (socket_folder.ts): the socket is `<folder>/<name>.sock`. */
  name: string;
  folder: string;
  idleMs: number;
  maxEntries: number;
  maxDepth: number;
  changes: { maxEntries: number; maxAgeMs: number };
}

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
  } = {},
): Promise<string> {
  const log = options.log ?? (() => {});
  const { socket, lock } = servicePaths(settings.folder, settings.name);
  const lockFile = await Deno.open(lock, {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  });
  try {
    if (!(await lockFile.tryLock(true))) return "another service holds the lock";
    // Holding the lock, a socket file there was left by a service that died.
    try {
      if (Deno.lstatSync(socket).isSocket) Deno.removeSync(socket);
    } catch { /* none */ }
    const listener = Deno.listen({ transport: "unix", path: socket });
    Deno.chmodSync(socket, 0o600);
    options.listening?.();
    return await serveUntilIdle(listener, settings, log);
  } finally {
    lockFile.close(); // and its lock with it
  }
}

async function serveUntilIdle(
  listener: Deno.Listener,
  settings: ServiceSettings,
  log: (line: string) => void,
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
  let timer: ReturnType<typeof setTimeout> | undefined;
  // With no session, a root that is gone (a temp folder removed) ends the service at once:
  // nobody will ask for it again, and each one left costs a process for its idle time.
  let looking: ReturnType<typeof setInterval> | undefined;
  const idle = (ms: number) => {
    clearTimeout(timer);
    clearInterval(looking);
    timer = setTimeout(() => ended("no session for the idle time"), ms);
    looking = setInterval(() => rootGone(root.realPath) && ended("its root is gone"), LOOK_MS);
  };
  const busy = () => {
    clearTimeout(timer);
    clearInterval(looking);
  };
  idle(Math.max(settings.idleMs, FIRST_SESSION_MS));
  const facts = (): ServiceFacts => ({
    pid: Deno.pid,
    run,
    startedAt,
    sessions,
    idleMs: settings.idleMs,
  });
  const accepting = (async () => {
    for await (const conn of listener) {
      void serveSession(conn, {
        index,
        root,
        version: settings.version,
        name: settings.name,
        facts,
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
  listener.close(); // removes the socket file
  await accepting;
  index.close();
  if (cookies.path !== null) removePrivateFolder(cookies.path);
  return why;
}
