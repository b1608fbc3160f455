/**
 * The server as `main.ts` runs it, but with scan workers that read through the
 * {@linkcode TestSeam} in the `FILE_TIME_SEARCH_TEST_SEAM` variable (JSON), and, when
 * the seam says so, with layer 1 switched off. Test-only: spawned by `connect()`.
 *
 * @module
 */
import { loadConfig } from "../../src/config.ts";
import { serve } from "../../src/mcp/server.ts";
import { disabledGuard, seamIndexWorkerUrl, seamWorkerUrl, type TestSeam } from "./seam.ts";

const seam = JSON.parse(Deno.env.get("FILE_TIME_SEARCH_TEST_SEAM") ?? "{}") as TestSeam;
// The seam changes how scan workers read; the live index reads for itself, so it stays
// off here unless a test asks for it.
const env = (name: string) => name === "INDEX" ? Deno.env.get(name) ?? "off" : Deno.env.get(name);
await serve({
  config: loadConfig({ env }),
  version: "0.0.0-test",
  log: (level, message) => console.error(`[seam] ${level}: ${message}`),
  input: Deno.stdin.readable,
  output: Deno.stdout.writable,
  workerUrl: seamWorkerUrl(seam),
  ...(seam.countBudget === undefined ? {} : { indexWorkerUrl: seamIndexWorkerUrl(seam) }),
  ...(seam.disableGuard ? { guard: disabledGuard } : {}),
});
