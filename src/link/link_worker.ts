/**
 * The session's one way to its roots' index services (contract §28, §13): a worker whose
 * Deno permissions reach exactly the sockets of the session's roots (`net: unix:<socket>`
 * each, read and write on the socket folder) and run exactly the server's own executable
 * (to start a service); the server's main isolate gives up `net` and `run` once it is made.
 * It checks the socket folder's owner and mode before each connection, starts a root's
 * service when none answers (detached: a client that kills its server's process group does
 * not end it), says hello (answered within a deadline), and passes messages both ways as the
 * lines they travel as (the main isolate makes and parses them: a string is cloned between
 * isolates for far less than an object), each written whole through the connection's one
 * writer. A line it cannot read (too long, or not ended in time) ends that connection (so
 * the service stops counting it) and says why; the main isolate ends it for one not JSON.
 *
 * @module
 */
import {
  checkSocketFolder,
  type FromService,
  LineError,
  lines,
  parseLine,
  Writer,
} from "../wire/mod.ts";
import type { FromLink, LinkRoot, ToLink } from "./link_messages.ts";

/** How long after starting a service its socket is looked for (a loaded machine takes seconds), and how often. */
const START_WAIT_MS = 20_000;
const START_STEP_MS = 20;

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToLink>) => void) | null;
  postMessage(message: FromLink): void;
}
const scope = self as unknown as WorkerScope;

let setup: Extract<ToLink, { type: "init" }> | null = null;
const conns = new Map<number, { conn: Deno.Conn; writer: Writer }>();
const connecting = new Set<number>();
/** Roots asked for in this turn: reached together, and one service started for those none answers. */
const asked: number[] = [];

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") setup = message;
  else if (message.type === "ensure") ask(message.root);
  else if (message.type === "send") void forward(message.root, message.line);
  else if (message.type === "drop") drop(message.root);
  else if (message.type === "start") void start(message.roots, message.args, message.input);
  else if (message.type === "unstarted") {
    for (const root of message.roots) connecting.delete(root), down(root, message.why, true);
  }
};

function down(root: number, why: string, retry: boolean): void {
  scope.postMessage({ type: "down", root, why, retry });
}

function ask(root: number): void {
  if (setup === null || conns.has(root) || connecting.has(root)) return;
  connecting.add(root);
  if (asked.length === 0) setTimeout(() => void reach(asked.splice(0)), 0);
  asked.push(root);
}

/** Connects each root's service; those none answers are said back, to start one for them. */
async function reach(roots: number[]): Promise<void> {
  const problem = checkSocketFolder(setup!.folder, setup!.uid);
  if (problem !== null) {
    for (const root of roots) connecting.delete(root), down(root, problem, false);
    return;
  }
  const missing: number[] = [];
  await Promise.all(roots.map(async (root) => {
    const conn = await tryConnect(setup!.roots[root]!);
    if (conn === DENIED) {
      connecting.delete(root);
      down(root, `Deno refused its socket (${DENIED})`, false);
    } else if (typeof conn === "string") missing.push(root);
    else void hello(root, conn, false);
  }));
  if (missing.length > 0) {
    scope.postMessage({
      type: "start?",
      roots: missing.sort((a, b) => a - b),
    });
  }
}

/**
 * Starts one service for `roots`, its settings (`input`) written on its stdin, then
 * connects each root's socket once it is there.
 */
async function start(roots: number[], args: string[], input: string): Promise<void> {
  /** The service's exit code once it has ended (one that ends as it starts is not waited for). */
  let ended: number | null = null;
  try {
    const child = new Deno.Command(setup!.command, {
      args,
      detached: true,
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    child.status.then((status) => (ended = status.code), () => (ended = -1));
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  } catch (err) {
    const why = `its service could not be started (${err instanceof Error ? err.name : "error"})`;
    for (const root of roots) connecting.delete(root), down(root, why, true);
    return;
  }
  await Promise.all(roots.map(async (root) => {
    let conn = await tryConnect(setup!.roots[root]!);
    for (let waited = 0; typeof conn === "string" && waited < START_WAIT_MS;) {
      const gone = ended !== null; // looked at once more: another service may hold the root
      await new Promise((resolve) => setTimeout(resolve, START_STEP_MS));
      waited += START_STEP_MS;
      conn = await tryConnect(setup!.roots[root]!);
      if (gone) break;
    }
    if (typeof conn === "string") {
      connecting.delete(root);
      const why = ended === null ? conn : `it ended as it started, code ${ended}`;
      return down(root, `its service did not start (${why})`, true);
    }
    void hello(root, conn, true);
  }));
}

/** What a socket this worker was not given gets: the session's permissions stop it. */
const DENIED = "NotCapable";

/** A connection, or why there is none. */
async function tryConnect(target: LinkRoot): Promise<Deno.Conn | string> {
  try {
    return await Deno.connect({ transport: "unix", path: target.socket });
  } catch (err) {
    if (err instanceof Deno.errors.NotCapable) return DENIED;
    if (err instanceof Deno.errors.NotFound) return "no socket";
    if (err instanceof Deno.errors.ConnectionRefused) return "a socket nobody listens on";
    if (err instanceof Deno.errors.PermissionDenied) return "the socket is not this user's";
    return err instanceof Error ? err.name : "error";
  }
}

/**
 * How long a service may take to answer a hello: its main thread answers it at once (the
 * index works in workers), so a service silent this long is stopped or hung, and three
 * such in a row (service_links.ts) leave the session on its own index within 10 s.
 */
const HELLO_MS = 2000;

/** Says hello on `conn` to root `root`'s service, then passes its messages on until it ends. */
async function hello(root: number, conn: Deno.Conn, started: boolean): Promise<void> {
  try {
    await talk(root, setup!.roots[root]!, conn, started);
  } finally {
    connecting.delete(root);
  }
}

async function talk(
  root: number,
  target: LinkRoot,
  conn: Deno.Conn,
  started: boolean,
): Promise<void> {
  const reader = lines(conn);
  const writer = new Writer(conn);
  const close = () => {
    try {
      conn.close();
    } catch { /* closed */ }
  };
  const late = setTimeout(close, HELLO_MS);
  try {
    await writer.send({
      t: "hello",
      version: setup!.version,
      build: setup!.build,
      name: target.name,
      idleMs: setup!.idleMs,
    });
    const first = await reader.next();
    const said = first.done ? null : parseLine<FromService>(first.value);
    if (said?.t !== "hello" || said.build !== setup!.build) {
      close();
      const why = said?.t === "refused"
        ? `its service refused: ${said.why}`
        : said?.t === "hello"
        ? `its service is another build (${said.build})`
        : "its service did not say hello";
      return down(root, why, true);
    }
    conns.set(root, { conn, writer });
    scope.postMessage({ type: "up", root, facts: said.facts, started });
  } catch {
    close();
    return down(root, "its service ended the connection", true);
  } finally {
    clearTimeout(late);
  }
  let why = "its service went away";
  try {
    // Passed on as read: the session's main isolate parses each (and drops a link that
    // sends what is not JSON).
    for await (const line of reader) scope.postMessage({ type: "message", root, line });
  } catch (err) {
    // Ended here, so that the service stops counting this session.
    why = err instanceof LineError
      ? `its service sent a line that could not be read (${err.message})`
      : "its connection failed";
  }
  close();
  if (conns.get(root)?.conn === conn) {
    conns.delete(root);
    down(root, why, true);
  }
}

async function forward(root: number, line: string): Promise<void> {
  const link = conns.get(root);
  if (!link) return down(root, "its service is not connected", true);
  try {
    await link.writer.sendLine(line);
  } catch {
    drop(root);
    down(root, "its service went away", true);
  }
}

function drop(root: number): void {
  const link = conns.get(root);
  conns.delete(root);
  try {
    link?.conn.close();
  } catch { /* closed */ }
}
