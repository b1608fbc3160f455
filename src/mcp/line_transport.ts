/**
 * An MCP stdio transport over Web streams: one JSON-RPC message per line.
 *
 * Unlike the SDK's `StdioServerTransport`, a line over the size limit is skipped
 * (answered with a JSON-RPC error) instead of closing the connection, a line that is
 * not JSON-RPC is answered and skipped, and the end of input closes the transport so
 * the process can exit: once every request already read has been answered, or after a
 * grace period.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/shared/transport.d.ts"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** Lines longer than this many bytes are skipped. */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

/** Options of {@linkcode LineTransport}. */
export interface LineTransportOptions {
  /** Default {@linkcode DEFAULT_MAX_LINE_BYTES}. */
  maxLineBytes?: number;
  /** After the end of input, how long to wait for answers to requests already read. Default 5000. */
  drainMs?: number;
  /** Where to note skipped input; default: nowhere. */
  log?: (level: "warning", message: string) => void;
}

const NEWLINE = 0x0a;

/** Reads newline-delimited JSON-RPC from `input`, writes it to `output`. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: ReadableStream<Uint8Array>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #maxLineBytes: number;
  readonly #log: (level: "warning", message: string) => void;
  readonly #drainMs: number;
  /** Ids of requests read but not answered yet. */
  readonly #pending = new Set<string | number>();
  #drained?: () => void;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  #reader?: ReadableStreamDefaultReader<Uint8Array>;
  #closed = false;

  constructor(
    input: ReadableStream<Uint8Array>,
    output: WritableStream<Uint8Array>,
    options: LineTransportOptions = {},
  ) {
    this.#input = input;
    this.#writer = output.getWriter();
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#log = options.log ?? (() => {});
    this.#drainMs = options.drainMs ?? 5000;
  }

  start(): Promise<void> {
    this.#reader = this.#input.getReader();
    this.#pump().catch((err) => this.onerror?.(err instanceof Error ? err : new Error(String(err))))
      .then(() => this.#drain())
      .finally(() => this.close());
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    await this.#writeLine(message);
    if (!("method" in message) && "id" in message && message.id !== undefined) {
      this.#pending.delete(message.id);
      if (this.#pending.size === 0) this.#drained?.();
    }
  }

  /** Waits until every request read has been answered, or the grace period ends. */
  async #drain(): Promise<void> {
    if (this.#pending.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.#drained = resolve;
      timer = setTimeout(resolve, this.#drainMs);
    });
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#reader?.cancel();
    } catch {
      // The input may already be gone.
    }
    this.onclose?.();
  }

  async #pump(): Promise<void> {
    const reader = this.#reader!;
    let parts: Uint8Array[] = [];
    let size = 0;
    let discarding = false;
    while (!this.#closed) {
      const { value: chunk, done } = await reader.read();
      if (done) return;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(NEWLINE, start);
        const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
        if (!discarding && size + piece.length > this.#maxLineBytes) {
          parts = [];
          size = 0;
          discarding = true;
        }
        if (!discarding) {
          parts.push(piece);
          size += piece.length;
        }
        if (nl === -1) break;
        if (discarding) {
          discarding = false;
          await this.#reject(
            -32600,
            `Message skipped: lines over ${this.#maxLineBytes} bytes are not read.`,
          );
        } else {
          await this.#line(concat(parts, size));
        }
        parts = [];
        size = 0;
        start = nl + 1;
      }
    }
  }

  async #line(bytes: Uint8Array): Promise<void> {
    const text = this.#decoder.decode(bytes).replace(/\r$/, "");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      await this.#reject(-32700, "Parse error: the line is not JSON.");
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = typeof value === "object" && value !== null && "id" in value &&
          (typeof value.id === "string" || typeof value.id === "number")
        ? value.id
        : null;
      await this.#reject(-32600, "Invalid Request: the line is not a JSON-RPC 2.0 message.", id);
      return;
    }
    const message = parsed.data;
    if ("method" in message && "id" in message && message.id !== undefined) {
      this.#pending.add(message.id);
    }
    this.onmessage?.(message);
  }

  async #reject(code: number, message: string, id: string | number | null = null): Promise<void> {
    this.#log("warning", message);
    if (this.#closed) return;
    await this.#writeLine({ jsonrpc: "2.0", id, error: { code, message } });
  }

  /** Writes one message as one line. */
  #writeLine(message: unknown): Promise<void> {
    return this.#writer.write(this.#encoder.encode(JSON.stringify(message) + "\n"));
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
