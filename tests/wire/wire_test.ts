/**
 * The services' wire (wire.ts): one JSON message a line, whatever the reads cut: a line
 * across several reads (looked through once), several lines in one read, blank lines.
 */
import assert from "node:assert/strict";
import { messages } from "../../src/wire/wire.ts";

/** A connection whose reads give `chunks` one by one, then its end. */
function reads(chunks: string[]): Deno.Conn {
  const left = chunks.map((c) => new TextEncoder().encode(c));
  return {
    read(into: Uint8Array): Promise<number | null> {
      const next = left.shift();
      if (next === undefined) return Promise.resolve(null);
      assert.ok(next.length <= into.length);
      into.set(next);
      return Promise.resolve(next.length);
    },
  } as unknown as Deno.Conn;
}

Deno.test("wire: messages are whole lines, however the reads cut them", async () => {
  const long = "x".repeat(200_000);
  const line = JSON.stringify({ t: "a", long });
  const got: unknown[] = [];
  // Reads of at most 40,000 bytes (the reader's buffer is 64 KiB): the long line in six.
  const cut: string[] = [];
  for (let at = 0; at < 200_000; at += 40_000) cut.push(line.slice(at, at + 40_000));
  const conn = reads([
    ...cut,
    line.slice(200_000) + '\n{"t":"b"}\n\n{"t":"c"',
    "}\n",
  ]);
  for await (const message of messages(conn)) got.push(message);
  assert.deepEqual(got, [{ t: "a", long }, { t: "b" }, { t: "c" }]);
});
