/**
 * The bare line framing of `bench:crossings` (its service's side and its link worker): each
 * line a connection sends, without its newline, read as the real wire reads them (a read
 * of up to 64 KiB at a time, a line whole once its newline is in), and a line written whole.
 *
 * @module
 */
const encoder = new TextEncoder();

/** Each line `conn` sends, until it ends. */
export async function* crossingLines(conn: Deno.Conn): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(64 * 1024);
  let got = "";
  for (;;) {
    const n = await conn.read(buffer);
    if (n === null) return;
    got += decoder.decode(buffer.subarray(0, n));
    if (!got.endsWith("\n")) continue;
    yield got.slice(0, -1);
    got = "";
  }
}

/** Writes `line` and its newline whole. */
export async function writeLine(conn: Deno.Conn, line: string): Promise<void> {
  const bytes = encoder.encode(line + "\n");
  for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
}
