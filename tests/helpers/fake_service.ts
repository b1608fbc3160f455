/**
 * A stand-in for an index service of another version, listening on the socket given as its
 * argument: it says hello with version `0.0.0-other` and writes each message's kind it is
 * sent to its stdout, one a line ("listening" first). Test-only.
 *
 * @module
 */
import { messages, send, type ToService } from "../../src/shared/wire.ts";

const path = Deno.args[0]!;
try {
  Deno.removeSync(path);
} catch { /* none */ }
const listener = Deno.listen({ transport: "unix", path });
const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
Deno.addSignalListener("SIGTERM", () => {
  listener.close();
  Deno.exit(0);
});
out("listening");
for await (const conn of listener) {
  (async () => {
    for await (const message of messages<ToService>(conn)) {
      out(message.t);
      if (message.t === "hello") {
        const facts = { pid: Deno.pid, run: "000000000000", startedAt: 0, sessions: 1, idleMs: 0 };
        await send(conn, { t: "hello", version: "0.0.0-other", facts });
      }
    }
  })().catch(() => {});
}
