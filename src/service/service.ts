/**
 * An index service (contract §28, §28a): one process per user and build that holds the
 * live index and journal of a set of roots (those of the session that started it that no
 * service of its build held yet), in one `LiveIndex` as a server holds its own, each root's
 * reading narrowed to that root. Each root has its own socket and lock in the user's
 * socket folder, named by the root, the build and the index settings, so a session finds
 * a root's service by the root alone; a root whose lock another service holds is left to
 * that one. It takes over a socket file left by one that died and removes what other dead
 * services left (socket_sweep.ts), and ends `idleMs` after its last session on any root
 * (0: with it), while it has no session as soon as every root of it is gone, when told to
 * stop, or when `stopOn` is aborted (main.ts: SIGTERM, SIGINT, SIGHUP), each end removing
 * its sockets, its locks and its private folder.
 *
 * @module
 */
import type { Root } from "../config.ts";
import {
  kernelQueueLimit,
  LiveIndex,
  makePrivateFolder,
  newRunId,
  removePrivateFolder,
} from "../index/mod.ts";
import { SnapshotScanner } from "../paging/mod.ts";
import { systemClock } from "../ports/mod.ts";
import { WorkerScanner } from "../workers/mod.ts";
import { serveSession } from "./service_session.ts";
import { JointWalks } from "./joint_walks.ts";
import {
  type ServiceAbout,
  type ServiceFacts,
  type ServiceSettings,
  TURN_WAIT_MS,
} from "../wire/mod.ts";
import { sweepDead } from "./socket_sweep.ts";
import { SocketClaim } from "./socket_claim.ts";

/** How often a service with no session looks whether its roots are still there. */
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

/** How long the workers that walked a building root's calls are kept after the last walk. */
const WALKERS_IDLE_MS = 10_000;

/** How long a service waits for its first session before it ends. */
const FIRST_SESSION_MS = 30_000;

/** One root the service holds: its socket and lock. */
interface Held {
  root: Root;
  name: string;
  claim: SocketClaim;
  sessions: number;
}

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
  const held: Held[] = [];
  const uid = Deno.lstatSync(settings.folder).uid ?? -1;
  try {
    for (const { root, name } of settings.roots) {
      try {
        const claim = await SocketClaim.take(settings.folder, uid, name);
        if (claim === null) continue; // another service holds this root
        held.push({ root: { path: root, realPath: root }, name, claim, sessions: 0 });
      } catch (err) {
        log(`root could not be served (${err instanceof Error ? err.name : "error"})`);
      }
    }
    if (held.length === 0) return "another service holds every root";
    options.listening?.();
    sweepDead(settings.folder, new Set(held.map((h) => h.name)));
    return await serveUntilIdle(held, settings, log, options.stopOn);
  } finally {
    for (const h of held) h.claim.release(); // each file removed (if still its own), then its lock
  }
}

async function serveUntilIdle(
  held: Held[],
  settings: ServiceSettings,
  log: (line: string) => void,
  stopOn: AbortSignal | undefined,
): Promise<string> {
  const roots = held.map((h) => h.root);
  const cookies = makePrivateFolder(roots.map((r) => r.realPath));
  // While a root's index is built its calls are walked here, alike ones at once; otherwise
  // their sessions walk them (WalkInSession). Asked only on a call, once `index` is made.
  const walks: JointWalks = new JointWalks({
    newScanner: (path) =>
      new WorkerScanner({ readPaths: [path], idle: 2, idleMs: WALKERS_IDLE_MS }),
    walksHere: (path): boolean => {
      const state = index.status()[roots.findIndex((r) => r.path === path)]?.state;
      return state === "starting" || state === "building";
    },
  });
  const index = new LiveIndex(walks, roots, {
    readPaths: roots.map((r) => r.realPath),
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
  // A paging sequence's later pages come from a snapshot kept here, one page at a time.
  const pages = new SnapshotScanner(index, systemClock);
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
  // The longest idle time any of its sessions asked for (each says it in its hello).
  let idleMs = settings.idleMs;
  // With no session, roots that are all gone (temp folders removed) end the service at
  // once: nobody will ask for them again, and each one left costs a process for its idle time.
  let looking: ReturnType<typeof setInterval> | undefined;
  const allGone = () => roots.every((r) => rootGone(r.realPath));
  const idle = (ms: number) => {
    clearTimeout(timer);
    clearInterval(looking);
    idleEndsAt = Date.now() + ms;
    timer = setTimeout(() => ended("no session for the idle time"), ms);
    looking = setInterval(() => allGone() && ended("its roots are gone"), LOOK_MS);
  };
  const busy = () => {
    clearTimeout(timer);
    clearInterval(looking);
    idleEndsAt = null;
  };
  idle(Math.max(settings.idleMs, FIRST_SESSION_MS));
  const facts = (h: Held | null): ServiceFacts => ({
    pid: Deno.pid,
    build: settings.build,
    run,
    startedAt,
    sessions: h === null ? sessions : h.sessions,
    idleMs,
  });
  /** Connections it could not accept (said in `status`). */
  let unaccepted: ServiceAbout["unaccepted"];
  const about = (): ServiceAbout => {
    const states = index.status();
    return {
      ...facts(null),
      version: settings.version,
      roots: held.map((h, i) => ({
        root: h.root.realPath,
        state: states[i]!.state,
        entries: states[i]!.entries,
        sessions: h.sessions,
      })),
      memoryBytes: Deno.memoryUsage().rss,
      idleEndsAt,
      ...(unaccepted ? { unaccepted } : {}),
    };
  };
  let closing = false;
  // A temp cleaner may remove a root's socket or lock (or the whole folder): the service
  // takes them again, or ends when another service took the root meanwhile (contract §28a).
  const claiming = setInterval(async () => {
    for (const h of held) {
      if (closing || !h.claim.lost()) continue;
      if (await h.claim.retake()) log("its socket was removed: listening again");
      else ended("its socket was taken over by another service");
    }
  }, LOOK_MS);
  // Each root's accept loop outlives its errors (out of descriptors: EMFILE, ENFILE), trying
  // again after a pause that doubles up to a second; it ends when the service closes.
  const accepting = held.map(async (h, i) => {
    let pause = 10;
    while (!closing) {
      let conn: Deno.Conn | null;
      try {
        conn = await h.claim.accept();
        pause = 10;
      } catch (err) {
        if (closing) return;
        const why = err instanceof Error ? err.name : "error";
        unaccepted = { count: (unaccepted?.count ?? 0) + 1, last: why, at: Date.now() };
        log(`a connection could not be accepted (${why})`);
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 1000);
        continue;
      }
      if (conn === null) return;
      void serveSession(conn, {
        index,
        pages,
        root: h.root,
        at: i,
        version: settings.version,
        build: settings.build,
        name: h.name,
        facts: () => facts(h),
        about,
        log,
        stop: () => ended("told to stop"),
        joined: (asked) => {
          idleMs = Math.max(idleMs, asked ?? 0);
          h.sessions++;
          sessions++;
          busy();
        },
        left: () => {
          h.sessions--;
          if (--sessions > 0) return;
          if (idleMs === 0) ended("its last session ended");
          else idle(idleMs);
        },
      });
    }
  });
  const why = await end;
  busy();
  stopOn?.removeEventListener("abort", stopped);
  closing = true;
  clearInterval(claiming);
  for (const h of held) h.claim.release(); // its socket file removed, if still its own
  await Promise.all(accepting);
  index.close();
  if (cookies.path !== null) removePrivateFolder(cookies.path);
  log(`ended: ${why}`);
  return why;
}
