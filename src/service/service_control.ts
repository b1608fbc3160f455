/**
 * `file-time-search status` and `file-time-search stop [ROOT] [--all]` (contract §28a), as
 * Watchman's `watch-list` and `shutdown-server`: every service of this user found in its
 * socket folder (after the folder's check), each asked `about` with a deadline; `stop`
 * tells the one holding a root (with every root it holds), or all, to end as at their
 * idle end, and waits until each has.
 * A socket that answers nothing in time is named as not answering.
 *
 * @module
 */
import {
  checkSocketFolder,
  type FromService,
  messages,
  type ServiceAbout,
  socketFolderOf,
  Writer,
} from "../wire/mod.ts";
import { makePrivateFolder, removePrivateFolder } from "../index/mod.ts";

/** How long a service may take to answer `about` or `stop`. */
const ASK_MS = 3000;
/** How long `stop` waits for a service to be gone. */
const GONE_MS = 10_000;

/** One socket of the folder: what its service said, or why it said nothing. */
export type Found = { socket: string; about: ServiceAbout } | { socket: string; why: string };

/** Asks the service at `socket` one question; its first reply, or why there is none. */
async function ask(socket: string, question: "about" | "stop"): Promise<FromService | string> {
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ transport: "unix", path: socket });
  } catch (err) {
    return err instanceof Deno.errors.ConnectionRefused ? "nobody listens" : "cannot connect";
  }
  const timer = setTimeout(() => conn.close(), ASK_MS);
  try {
    await new Writer(conn).send(question === "about" ? { t: "about" } : { t: "stop" });
    for await (const reply of messages<FromService>(conn)) return reply;
    return "it did not answer";
  } catch {
    return "it did not answer";
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

/** Every service of this user in `folder`: what each says of itself. */
export async function findServices(folder: string, uid: number): Promise<Found[] | string> {
  const problem = checkSocketFolder(folder, uid);
  if (problem !== null) return problem;
  const sockets = [...Deno.readDirSync(folder)]
    .filter((e) => e.name.endsWith(".sock"))
    .map((e) => `${folder}/${e.name}`)
    .sort();
  return await Promise.all(sockets.map(async (socket): Promise<Found> => {
    const reply = await ask(socket, "about");
    if (typeof reply === "string") return { socket, why: reply };
    if (reply.t !== "about") return { socket, why: "it answered something else" };
    return { socket, about: reply.about };
  }));
}

/** Tells the service at `socket` (process `pid`) to end; whether it ended in time. */
export async function stopService(socket: string, pid: number): Promise<boolean> {
  const reply = await ask(socket, "stop");
  if (typeof reply === "string" || reply.t !== "stopping") return false;
  const until = Date.now() + GONE_MS;
  while (Date.now() < until) {
    let there = true;
    try {
      Deno.lstatSync(socket);
    } catch {
      there = false;
    }
    if (!there && !running(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** Whether process `pid` still runs (Linux: `/proc`; elsewhere its socket's end says so). */
function running(pid: number): boolean {
  if (Deno.build.os !== "linux") return false;
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

/** A process's proportional set size in bytes (Linux `smaps_rollup`), or `null`. */
export function pssOf(pid: number): number | null {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`);
    const kb = /^Pss:\s+(\d+) kB/m.exec(text)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/** The socket folder of this user (via a private folder made and removed at once). */
function userSocketFolder(): { folder: string; uid: number } | string {
  const made = makePrivateFolder([]);
  if (made.path === null) return made.why;
  try {
    return socketFolderOf(made.path);
  } finally {
    removePrivateFolder(made.path);
  }
}

/** A duration for a person: `2h 5m`, `3m 12s`, `40s`. */
function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${s}s`;
}

/** One service as `status` prints it: a line of itself, then a line per root. */
function described(about: ServiceAbout, now: number): string {
  const pss = pssOf(about.pid);
  const memory = pss !== null
    ? `${(pss / 1e6).toFixed(0)} MB (PSS)`
    : `${(about.memoryBytes / 1e6).toFixed(0)} MB (RSS)`;
  const idle = about.idleEndsAt === null
    ? "ends after its last session"
    : `ends in ${span(about.idleEndsAt - now)} unless a session comes`;
  return [
    `service pid ${about.pid}, build ${about.build}, ${about.sessions} session(s), up ${
      span(now - about.startedAt)
    }, ${memory}, ${idle}`,
    ...about.roots.map((r) =>
      `  ${r.root}  index ${r.state} (${r.entries} entries), ${r.sessions} session(s)`
    ),
    ...(about.unaccepted
      ? [
        `  could not accept ${about.unaccepted.count} connection(s), the last ${
          span(now - about.unaccepted.at)
        } ago (${about.unaccepted.last}: out of file descriptors?)`,
      ]
      : []),
  ].join("\n");
}

/** What `status` and `stop` print, and their exit code. */
export interface ControlIo {
  out(text: string): void;
  err(text: string): void;
}

/**
 * `file-time-search status` (this user's services) or `stop ROOT...|--all`; the exit code:
 * 0, 1 when a service did not stop, 2 for arguments that are not these.
 */
export async function servicesCommand(args: string[], io: ControlIo): Promise<number> {
  const [command, ...rest] = args;
  const all = rest.includes("--all");
  const roots = rest.filter((a) => a !== "--all");
  const unknown = roots.find((a) => a.startsWith("-"));
  if (unknown !== undefined || (command === "status" && rest.length > 0)) {
    io.err(`file-time-search ${command}: unknown argument '${unknown ?? rest[0]}'.\n`);
    return 2;
  }
  if (command === "stop" && !all && roots.length === 0) {
    io.err("file-time-search stop: name the folder whose service ends, or --all.\n");
    return 2;
  }
  const place = userSocketFolder();
  if (typeof place === "string") {
    io.err(`file-time-search ${command}: ${place}.\n`);
    return 2;
  }
  const found = await findServices(place.folder, place.uid);
  if (typeof found === "string") {
    io.out(found.includes("could not be read") ? "No index services.\n" : `${found}.\n`);
    return 0;
  }
  const now = Date.now();
  // A service listens on a socket per root: each process once, through its first socket.
  const seen = new Set<number>();
  const up = found.flatMap((f) =>
    "about" in f && !seen.has(f.about.pid) && seen.add(f.about.pid) ? [f] : []
  );
  if (command === "status") {
    if (up.length === 0) io.out("No index services.\n");
    for (const f of up) io.out(described(f.about, now) + "\n");
    const silent = found.length - up.length;
    if (silent > 0) {
      io.out(`${silent} socket(s) without a service answering (left by one that ended).\n`);
    }
    return 0;
  }
  const wanted = new Set<string>();
  for (const root of roots) {
    try {
      wanted.add(Deno.realPathSync(root));
    } catch {
      io.err(`file-time-search stop: '${root}' cannot be read.\n`);
      return 2;
    }
  }
  const targets = up.filter((f) => all || f.about.roots.some((r) => wanted.has(r.root)));
  if (targets.length === 0) {
    io.out(all ? "No index services.\n" : "No index service of that folder.\n");
    return 0;
  }
  let code = 0;
  for (const f of targets) {
    const ended = await stopService(f.socket, f.about.pid);
    const roots = f.about.roots.map((r) => r.root).join(", ");
    io.out(`${ended ? "stopped" : "did not stop"}: ${roots} (pid ${f.about.pid})\n`);
    if (!ended) code = 1;
  }
  return code;
}
