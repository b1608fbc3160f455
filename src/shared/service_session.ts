/**
 * One session's connection to a root's index service (contract §28): its hello (another
 * version, or another service's name, is refused), then its calls, each answered from the
 * service's live index or told to walk (with why), its cancels, its journal questions and
 * its status questions, in any order and at once; cancelled when the session goes.
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import type { LiveIndex } from "../index/mod.ts";
import type { Root } from "../config.ts";
import type { SearchRequest } from "../query/mod.ts";
import { type FromService, messages, send, type ServiceFacts, type ToService } from "./wire.ts";

/** How often a call still waiting for the index is said to its session. */
const WAITING_EVERY_MS = 1000;

/** Thrown by the service's stand-in for a walk: the session walks, not the service. */
export class WalkInSession extends Error {
  constructor() {
    super("the session walks");
    this.name = "WalkInSession";
  }
}

/** What a connection needs of its service. */
export interface SessionDeps {
  index: LiveIndex;
  root: Root;
  version: string;
  name: string;
  facts(): ServiceFacts;
  /** The session said hello (it counts from now until its connection ends). */
  joined(): void;
  left(): void;
}

/** Serves one connection until it ends. */
export async function serveSession(conn: Deno.Conn, deps: SessionDeps): Promise<void> {
  const running = new Map<number, AbortController>();
  let joined = false;
  const reply = (message: FromService) => send(conn, message).catch(() => {});
  try {
    for await (const message of messages<ToService>(conn)) {
      if (message.t === "hello") {
        if (message.version !== deps.version || message.name !== deps.name) {
          await reply({ t: "refused", why: `this service is version ${deps.version}` });
          break;
        }
        joined = true;
        deps.joined();
        await reply({ t: "hello", version: deps.version, facts: deps.facts() });
      } else if (!joined) {
        break;
      } else if (message.t === "scan") {
        const control = new AbortController();
        running.set(message.id, control);
        void scan(message, control.signal, deps, reply).finally(() => running.delete(message.id));
      } else if (message.t === "cancel") {
        running.get(message.id)?.abort(new DOMException("cancelled", "AbortError"));
      } else if (message.t === "journal") {
        void journal(message, deps, reply);
      } else if (message.t === "status") {
        const status = deps.index.status()[0]!;
        const journal = journalMark(deps);
        await reply({ t: "status", id: message.id, status, facts: deps.facts(), journal });
      }
    }
  } catch {
    // A line that is not ours: the connection ends.
  } finally {
    for (const control of running.values()) control.abort(new DOMException("gone", "AbortError"));
    try {
      conn.close();
    } catch { /* closed already */ }
    if (joined) deps.left();
  }
}

async function scan(
  message: Extract<ToService, { t: "scan" }>,
  signal: AbortSignal,
  deps: SessionDeps,
  reply: (message: FromService) => Promise<void>,
): Promise<void> {
  const { id } = message;
  // The session names the root as its user wrote it; here it is the service's root.
  const request: SearchRequest = { ...message.request, root: deps.root };
  if (message.request.root.realPath !== deps.root.realPath) {
    return reply({ t: "scan", id, walk: "the service keeps another root", journal: null });
  }
  let by = "";
  let last = 0;
  // Said each second until the call is answered, while it waits its turn at the index (a
  // session that hears nothing for its call's deadline lets the service go).
  const waiting = setInterval(() => void reply({ t: "waiting", id }), WAITING_EVERY_MS);
  try {
    const outcome = await deps.index.run(request, {
      signal,
      keepAll: message.keepAll,
      onAnswered: (said) => (by = said),
      onProgress: (progress) => {
        const now = Date.now();
        if (now - last < 250) return;
        last = now;
        void reply({ t: "progress", id, progress });
      },
    });
    // The journal as of the answer (read in the same turn): the session's next clock.
    await reply({ t: "scan", id, outcome, journal: journalMark(deps) });
  } catch (err) {
    if (signal.aborted) return;
    if (err instanceof WalkInSession) {
      const why = /^a walk \((.*)\)$/s.exec(by)?.[1] ?? "its index did not answer";
      return reply({ t: "scan", id, walk: why, journal: null });
    }
    if (err instanceof ToolError) {
      const { code, message: text, fix, details } = err;
      return reply({ t: "scan", id, error: { code, message: text, fix, details }, journal: null });
    }
    const name = err instanceof Error ? err.name : "error";
    return reply({ t: "scan", id, walk: `its indexed answer failed (${name})`, journal: null });
  } finally {
    clearInterval(waiting);
  }
}

async function journal(
  message: Extract<ToService, { t: "journal" }>,
  deps: SessionDeps,
  reply: (message: FromService) => Promise<void>,
): Promise<void> {
  const { id } = message;
  try {
    const asked = await deps.index.askJournal(deps.root.path, message.query);
    // The journal as of the answer (read in the same turn): the session's next clock.
    const journal = journalMark(deps);
    if (typeof asked === "string") return reply({ t: "journal", id, why: asked, journal });
    return reply({ t: "journal", id, ...asked, run: deps.facts().run, journal });
  } catch (err) {
    const name = err instanceof Error ? err.name : "error";
    return reply({ t: "journal", id, why: `its journal failed (${name})` });
  }
}

function journalMark(deps: SessionDeps) {
  const mark = deps.index.journalOf(deps.root.path);
  return mark === null ? null : { ...mark, run: deps.facts().run };
}
