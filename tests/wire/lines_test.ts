/**
 * The services' wire (lines.ts): one JSON message a line, whatever the reads cut: a line
 * across several reads (looked through once), several lines in one read, blank lines; a
 * 24 MiB line in under a second of CPU.
 */
import assert from "node:assert/strict";
import { cpuUsage } from "node:process";
import { messages } from "../../src/wire/lines.ts";

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

Deno.test("wire: a 24 MiB line is read in linear time (under a second of CPU)", async () => {
  // Read 64 KiB at a time as from a socket: each byte is looked at once, never again per read
  // (last round appended each read to a string and searched it all again: 22-25 s of CPU).
  const long = "y".repeat(24 * 1024 * 1024);
  const bytes = new TextEncoder().encode(JSON.stringify({ t: "a", long }) + "\n");
  let at = 0;
  const conn = {
    read(into: Uint8Array): Promise<number | null> {
      if (at >= bytes.length) return Promise.resolve(null);
      const n = Math.min(into.length, bytes.length - at);
      into.set(bytes.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
  } as unknown as Deno.Conn;
  const before = cpuUsage();
  let got: { long: string } | undefined;
  for await (const message of messages<{ long: string }>(conn, { maxLine: 64 << 20 })) {
    got = message;
  }
  const spent = cpuUsage(before);
  assert.equal(got?.long.length, long.length);
  const ms = (spent.user + spent.system) / 1000;
  assert.ok(ms < 1000, `${ms.toFixed(0)} ms of CPU for a 24 MiB line`);
});
