/**
 * The stdio line transport: garbage and oversized lines are answered and skipped,
 * the connection survives them, and the end of input closes it.
 */
import assert from "node:assert/strict";
import { LineTransport, type LineTransportOptions } from "../../src/mcp/line_transport.ts";
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Feeds `chunks` as input; collects every message and every line written. */
async function run(
  chunks: string[],
  options: LineTransportOptions = {},
  answer?: (transport: LineTransport, message: JSONRPCMessage) => void,
) {
  const encoder = new TextEncoder();
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const written: string[] = [];
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      written.push(new TextDecoder().decode(chunk));
    },
  });
  const transport = new LineTransport(input, output, { drainMs: 0, ...options });
  const messages: unknown[] = [];
  transport.onmessage = (m) => {
    messages.push(m);
    answer?.(transport, m);
  };
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  await transport.start();
  await closed;
  return {
    messages,
    replies: written.join("").split("\n").filter((l) => l).map((l) => JSON.parse(l)),
  };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });

Deno.test("LineTransport reads messages split across chunks and closes at end of input", async () => {
  const line = ping(1) + "\n" + ping(2) + "\r\n";
  const { messages, replies } = await run([line.slice(0, 7), line.slice(7, 40), line.slice(40)]);
  assert.deepEqual(messages, [JSON.parse(ping(1)), JSON.parse(ping(2))]);
  assert.deepEqual(replies, []);
});

Deno.test("LineTransport answers garbage and carries on", async () => {
  const { messages, replies } = await run([
    "not json\n",
    '{"truncated": \n',
    '{"jsonrpc":"2.0","id":7,"method":5}\n',
    "\n",
    ping(3) + "\n",
  ]);
  assert.deepEqual(messages, [JSON.parse(ping(3))]);
  assert.deepEqual(replies.map((r) => [r.id, r.error.code]), [[null, -32700], [null, -32700], [
    7,
    -32600,
  ]]);
});

Deno.test("LineTransport skips a line over the size limit and keeps reading", async () => {
  const big = JSON.stringify({
    jsonrpc: "2.0",
    id: 9,
    method: "ping",
    params: { pad: "x".repeat(500) },
  });
  const { messages, replies } = await run([
    big.slice(0, 100),
    big.slice(100) + "\n",
    ping(4) + "\n",
  ], { maxLineBytes: 256 });
  assert.deepEqual(messages, [JSON.parse(ping(4))]);
  assert.equal(replies.length, 1);
  assert.equal(replies[0].error.code, -32600);
  assert.match(replies[0].error.message, /over 256 bytes/);
});

Deno.test("LineTransport answers requests read before the end of input, then closes", async () => {
  const { replies } = await run([ping(5) + "\n" + ping(6) + "\n"], { drainMs: 60_000 }, (t, m) => {
    // Answer later, after the input has ended.
    const id = (m as { id: number }).id;
    Promise.resolve().then(() => Promise.resolve()).then(() =>
      t.send({ jsonrpc: "2.0", id, result: {} })
    );
  });
  assert.deepEqual(replies.map((r) => r.id), [5, 6]);
});
