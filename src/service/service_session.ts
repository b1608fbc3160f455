/**
 * One connection to an index service (contract §28, §28a): every line read is checked
 * against its type (service_messages.ts); a line that is not one of ours, one too long, one
 * begun and not ended in time, or no hello in time ends that connection and nothing else.
 * After its hello (another build, or another service's name, is refused) come its calls,
 * each answered from the service's live index or told to walk (with why, and the build's
 * progress while the index is built), its cancels, its journal and status questions, in
 * any order and at once, and its walks the build gives way to (`hold`, `release`: while its
 * index is built, a session's walk and the build do not read the disk at once); every
 * reply goes through the connection's one writer, so none is
 * written inside another. `about` and `stop` (from `file-time-search status` and `stop`)
 * need no hello. Its calls are cancelled when the connection ends.
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import type { LiveIndex } from "../index/mod.ts";
import type { Root } from "../config.ts";
import type { SearchRequest } from "../query/mod.ts";
import { handedOn } from "../walk/mod.ts";
import type { Scanner } from "../workers/mod.ts";
import {
  type FromService,
  LineError,
  messages,
  type ServiceAbout,
  type ServiceFacts,
  type ToService,
  Writer,
} from "../wire/mod.ts";
import { toService } from "./service_messages.ts";

/** How often a call still waiting for the index is said to its session. */
const WAITING_EVERY_MS = 1000;
/** How long a connection may take to say its first message. */
export const HELLO_MS = 10_000;
/** How long a line, once begun, may take to end. */
const LINE_MS = 10_000;
/** The longest line a service reads (a request is a few KiB). */
const MAX_LINE = 4 * 1024 * 1024;

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
  /** The index with the paging snapshots in front (the scans go here). */
  pages: Scanner;
  /** The root this connection is for, and its place among the service's roots. */
  root: Root;
  at: number;
  version: string;
  build: string;
  name: string;
  facts(): ServiceFacts;
  about(): ServiceAbout;
  /**
   * The session said hello (it counts from now until its connection ends), asking its
   * service to live `idleMs` after its last session (when it said).
   */
  joined(idleMs: number | undefined): void;
  left(): void;
  /** `file-time-search stop`: end as at the idle end. */
  stop(): void;
  log(line: string): void;
}

/** Serves one connection until it ends. */
export async function serveSession(conn: Deno.Conn, deps: SessionDeps): Promise<void> {
  const running = new Map<number, AbortController>();
  /** The session's walks the build gives way to, each until its release or this end. */
  const holds = new Map<number, () => void>();
  const writer = new Writer(conn);
  const reply = (message: FromService) => writer.send(message).catch(() => {});
  let joined = false;
  const end = () => {
    try {
      conn.close();
    } catch { /* closed already */ }
  };
  const hello = setTimeout(() => {
    deps.log("a connection said nothing in time: ended");
    end();
  }, HELLO_MS);
  try {
    for await (const raw of messages<unknown>(conn, { maxLine: MAX_LINE, lineMs: LINE_MS })) {
      clearTimeout(hello); // it said something
      const message = toService(raw);
      if (message === null) {
        deps.log("a connection sent a message that is not ours: ended");
        break;
      }
      if (message.t === "about") {
        await reply({ t: "about", about: deps.about() });
      } else if (message.t === "stop") {
        await reply({ t: "stopping" });
        deps.log("told to stop (file-time-search stop)");
        deps.stop();
      } else if (message.t === "hello") {
        if (joined) continue;
        if (
          message.version !== deps.version || message.build !== deps.build ||
          message.name !== deps.name
        ) {
          await reply({ t: "refused", why: `this service is build ${deps.build}` });
          break;
        }
        joined = true;
        deps.joined(message.idleMs);
        await reply({ t: "hello", version: deps.version, build: deps.build, facts: deps.facts() });
      } else if (!joined) {
        deps.log("a connection asked before its hello: ended");
        break;
      } else if (message.t === "scan") {
        const control = new AbortController();
        running.set(message.id, control);
        void scan(message, control.signal, deps, reply)
          .catch((err) => failed(deps, err, end))
          .finally(() => running.delete(message.id));
      } else if (message.t === "cancel") {
        running.get(message.id)?.abort(new DOMException("cancelled", "AbortError"));
      } else if (message.t === "journal") {
        void journal(message, deps, reply).catch((err) => failed(deps, err, end));
      } else if (message.t === "hold") {
        if (!holds.has(message.id)) holds.set(message.id, deps.index.hold());
      } else if (message.t === "release") {
        holds.get(message.id)?.();
        holds.delete(message.id);
      } else if (message.t === "status") {
        const status = deps.index.status()[deps.at]!;
        const journal = journalMark(deps);
        // Its resident size with its facts here alone: the other replies need only their run.
        const facts = { ...deps.facts(), rssBytes: Deno.memoryUsage().rss };
        await reply({ t: "status", id: message.id, status, facts, journal });
      }
    }
  } catch (err) {
    if (err instanceof LineError) {
      deps.log(`a connection's line could not be read (${err.message}): ended`);
    } else failed(deps, err, () => {});
  } finally {
    clearTimeout(hello);
    for (const control of running.values()) control.abort(new DOMException("gone", "AbortError"));
    for (const release of holds.values()) release();
    end();
    if (joined) deps.left();
  }
}

/** A failure in one connection's handling: said, and that connection ended. */
function failed(deps: SessionDeps, err: unknown, end: () => void): void {
  deps.log(`a connection's message failed (${err instanceof Error ? err.name : "error"}): ended`);
  end();
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
  /** Why the index did not answer, when it said so (answers.ts: "a walk (why)"). */
  let walked: string | undefined;
  let last = 0;
  // Said each second until the call is answered, while it waits its turn at the index (a
  // session that hears nothing for its call's deadline lets the service go). Through the
  // connection's writer: never inside another message.
  const waiting = setInterval(() => void reply({ t: "waiting", id }), WAITING_EVERY_MS);
  try {
    const answered = await deps.pages.run(request, {
      signal,
      keepAll: message.keepAll,
      ...(message.walkCost ? { walkCost: message.walkCost } : {}),
      onAnswered: (said) => (walked = /^a walk \((.*)\)$/s.exec(said)?.[1]),
      onProgress: (progress) => {
        const now = Date.now();
        if (now - last < 250) return;
        last = now;
        void reply({ t: "progress", id, progress });
      },
    });
    const outcome = handedOn(answered);
    // Walked here while its index is built (joint_walks.ts): the session says why.
    if (walked !== undefined) return reply({ t: "scan", id, outcome, walked, journal: null });
    // The journal as of the answer (read in the same turn): the session's next clock.
    await reply({ t: "scan", id, outcome, journal: journalMark(deps) });
  } catch (err) {
    if (signal.aborted) return;
    if (err instanceof WalkInSession) {
      // Why it walks, with the build's progress while it is built ("N entries read so far").
      const why = walked ?? "its index did not answer";
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
  // Said each second, as for a scan: a journal question waits for the index's barrier (every
  // event before it read), which takes seconds under a burst on a loaded machine.
  const waiting = setInterval(() => void reply({ t: "waiting", id }), WAITING_EVERY_MS);
  try {
    const asked = await deps.index.askJournal(deps.root.path, message.query);
    // The journal as of the answer (read in the same turn): the session's next clock.
    const journal = journalMark(deps);
    if (typeof asked === "string") return reply({ t: "journal", id, why: asked, journal });
    return reply({ t: "journal", id, ...asked, run: deps.facts().run, journal });
  } catch (err) {
    const name = err instanceof Error ? err.name : "error";
    return reply({ t: "journal", id, why: `its journal failed (${name})` });
  } finally {
    clearInterval(waiting);
  }
}

function journalMark(deps: SessionDeps) {
  const mark = deps.index.journalOf(deps.root.path);
  return mark === null ? null : { ...mark, run: deps.facts().run };
}
