/**
 * A stand-in for an index service of another build, listening on the socket given as its
 * argument: it says hello with build `0.0.0-other+000000000000` (or, given a build and a
 * version, as that build, then ends the connection; given `silent`, never answers, as a
 * service that accepts and hangs) and writes each message's kind it is sent to its stdout,
 * one a line ("listening" first). Test-only.
 *
 * @module
 */
import { messages, type ToService, Writer } from "../../src/wire/mod.ts";

const path = Deno.args[0]!;
/** With a build and version: says hello as that build, then ends the connection at once. */
const silent = Deno.args[1] === "silent";
const [sameBuild, sameVersion] = silent ? [] : [Deno.args[1], Deno.args[2]];
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
      if (message.t === "hello" && !silent) {
        const build = sameBuild ?? "0.0.0-other+000000000000";
        const version = sameVersion ?? "0.0.0-other";
        const facts = {
          pid: Deno.pid,
          build,
          run: "000000000000",
          startedAt: 0,
          sessions: 1,
          idleMs: 0,
        };
        await new Writer(conn).send({ t: "hello", version, build, facts });
        if (sameBuild !== undefined) conn.close(); // as a service that dies after each hello
      }
    }
  })().catch(() => {});
}
