/**
 * The session's one way to its roots' index services (contract §28, §13): a worker whose
 * Deno permissions reach exactly the sockets of the session's roots (`net: unix:<socket>`
 * each, read and write on the socket folder) and run exactly the server's own executable
 * (to start a service); the server's main isolate gives up `net` and `run` once it is made.
 * It checks the socket folder's owner and mode before each connection, starts a root's
 * service when none answers (detached: a client that kills its server's process group does
 * not end it), says hello, and passes messages both ways.
 *
 * @module
 */
import { checkSocketFolder } from "./socket_folder.ts";
import { type FromService, messages, send, type ToService } from "./wire.ts";
import type { FromLink, LinkRoot, ToLink } from "./link_messages.ts";

/** How long after starting a service its socket is looked for (a loaded machine takes seconds), and how often. */
const START_WAIT_MS = 20_000;
const START_STEP_MS = 50;

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToLink>) => void) | null;
  postMessage(message: FromLink): void;
}
const scope = self as unknown as WorkerScope;

let setup: Extract<ToLink, { type: "init" }> | null = null;
const conns = new Map<number, Deno.Conn>();
const connecting = new Set<number>();

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") setup = message;
  else if (message.type === "ensure") void ensure(message.root);
  else if (message.type === "send") void forward(message.root, message.message);
  else if (message.type === "drop") drop(message.root);
};

function down(root: number, why: string, retry: boolean): void {
  scope.postMessage({ type: "down", root, why, retry });
}

async function ensure(root: number): Promise<void> {
  if (setup === null || conns.has(root) || connecting.has(root)) return;
  const target = setup.roots[root]!;
  connecting.add(root);
  try {
    const problem = checkSocketFolder(setup.folder, setup.uid);
    if (problem !== null) return down(root, problem, false);
    let conn = await tryConnect(target);
    if (conn === DENIED) return down(root, `Deno refused its socket (${DENIED})`, false);
    if (typeof conn === "string") {
      const started = start(target);
      if (started !== null) return down(root, started, true);
      for (let waited = 0; typeof conn === "string" && waited < START_WAIT_MS;) {
        await new Promise((resolve) => setTimeout(resolve, START_STEP_MS));
        waited += START_STEP_MS;
        conn = await tryConnect(target);
      }
      if (typeof conn === "string") return down(root, `its service did not start (${conn})`, true);
    }
    await hello(root, target, conn);
  } finally {
    connecting.delete(root);
  }
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

/** Starts the root's service; why it could not be started, or `null`. */
function start(target: LinkRoot): string | null {
  try {
    const child = new Deno.Command(setup!.command, {
      args: [...target.args, JSON.stringify(target.settings)],
      detached: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    return null;
  } catch (err) {
    return `its service could not be started (${err instanceof Error ? err.name : "error"})`;
  }
}

async function hello(root: number, target: LinkRoot, conn: Deno.Conn): Promise<void> {
  const reader = messages<FromService>(conn);
  try {
    await send(conn, { t: "hello", version: setup!.version, name: target.settings.name });
    const first = await reader.next();
    const said = first.done ? null : first.value;
    if (said?.t !== "hello" || said.version !== setup!.version) {
      conn.close();
      const why = said?.t === "refused"
        ? `its service refused: ${said.why}`
        : said?.t === "hello"
        ? `its service is another version (${said.version})`
        : "its service did not say hello";
      return down(root, why, true);
    }
    conns.set(root, conn);
    scope.postMessage({ type: "up", root, facts: said.facts });
  } catch {
    try {
      conn.close();
    } catch { /* closed */ }
    return down(root, "its service ended the connection", true);
  }
  try {
    for await (const message of reader) scope.postMessage({ type: "message", root, message });
  } catch { /* a line that is not ours */ }
  if (conns.get(root) === conn) {
    conns.delete(root);
    down(root, "its service went away", true);
  }
}

async function forward(root: number, message: ToService): Promise<void> {
  const conn = conns.get(root);
  if (!conn) return down(root, "its service is not connected", true);
  try {
    await send(conn, message);
  } catch {
    drop(root);
    down(root, "its service went away", true);
  }
}

function drop(root: number): void {
  const conn = conns.get(root);
  conns.delete(root);
  try {
    conn?.close();
  } catch { /* closed */ }
}
