/**
 * Logging (contract §12): every line goes to stderr; once the client has asked for
 * logs with `logging/setLevel`, lines at or above its level also go to it as
 * `notifications/message`. stdout never carries a log line. Each tool call logs one line
 * (contract §23a): the tool, its root, who answered (the index, or a walk and why), how
 * many, and the time, at most {@linkcode MOST_CHARS} characters; a refusal names its code
 * and the argument at fault. Nothing else is logged per call: the answer itself carries its
 * summary and notes.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/index.d.ts"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import { type LoggingLevel, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ToolError } from "../errors.ts";

/** Levels in increasing severity, as MCP orders them. */
const LEVELS: LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** Writes one log line. */
export type Log = (level: "info" | "warning" | "error", message: string) => void;

/** The logger of one server. */
export class McpLog {
  readonly #stderr: Log;
  #server?: Server;
  #level: LoggingLevel | null = null;
  /** Said to the client when it first asks for logs (start-up facts). */
  readonly #greeting: string[] = [];

  constructor(stderr: Log) {
    this.#stderr = stderr;
  }

  /** Takes over `logging/setLevel` on `server`. */
  attach(server: Server): void {
    this.#server = server;
    server.setRequestHandler(
      SetLevelRequestSchema,
      (request: { params: { level: LoggingLevel } }) => {
        const first = this.#level === null;
        this.#level = request.params.level;
        if (first) { for (const line of this.#greeting) this.#notify("info", line); }
        return {};
      },
    );
  }

  /** Logs a start-up fact: to stderr now, and to the client when it asks for logs. */
  startup(message: string): void {
    this.#greeting.push(message);
    this.log("info", message);
  }

  /** Logs one line. */
  log: Log = (level, message) => {
    this.#stderr(level, message);
    this.#notify(level, message);
  };

  #notify(level: LoggingLevel, message: string): void {
    if (this.#level === null || !this.#server) return;
    if (LEVELS.indexOf(level) < LEVELS.indexOf(this.#level)) return;
    this.#server.sendLoggingMessage({ level, logger: "file-time-search", data: message })
      .catch(() => {}); // the client may be gone
  }
}

/** The longest line a call logs. */
export const MOST_CHARS = 200;

/** What one answered call's line says. */
export interface CallFacts {
  tool: "search" | "changes";
  /** The root searched, or how many when every root was. */
  root: string;
  /** "the index", or "a walk (why)", or for changes "the journal", "a fresh instance (why)". */
  answeredBy: string;
  /** How many the page holds (matches, or changes). */
  count: number;
  /** Whether a next page holds more. */
  more: boolean;
  ms: number;
}

/** `text` cut to `most` characters with an ellipsis in its middle (a path keeps both ends). */
function cut(text: string, most: number): string {
  if (text.length <= most) return text;
  const half = Math.floor((most - 1) / 2);
  return `${text.slice(0, half)}…${text.slice(text.length - (most - 1 - half))}`;
}

/** The line of an answered call. */
export function callLine(facts: CallFacts): string {
  const { count, more } = facts;
  const noun = facts.tool === "search"
    ? (count === 1 ? "match" : "matches")
    : (count === 1 ? "change" : "changes");
  const tail = `: ${count} ${noun}${more ? ", more" : ""}, ${facts.ms} ms, by ${facts.answeredBy}.`;
  const head = `${facts.tool} ${facts.root}`;
  if (head.length + tail.length <= MOST_CHARS) return head + tail;
  // The root keeps at least 60 characters; the reason of a walk gives way first.
  const root = cut(facts.root, Math.max(60, MOST_CHARS - facts.tool.length - 1 - tail.length));
  return cut(`${facts.tool} ${root}${tail}`, MOST_CHARS);
}

/** The line of a refused call: its code, and the argument its message names first. */
export function refusalLine(tool: CallFacts["tool"], err: ToolError): string {
  const argument = /'([A-Za-z_.]+)'/.exec(err.message)?.[1];
  return cut(`${tool} refused: ${err.code}${argument ? ` ('${argument}')` : ""}.`, MOST_CHARS);
}
