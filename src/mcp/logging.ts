/**
 * Logging (contract §12): every line goes to stderr; once the client has asked for
 * logs with `logging/setLevel`, lines at or above its level also go to it as
 * `notifications/message`. stdout never carries a log line.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/index.d.ts"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import { type LoggingLevel, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";

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
