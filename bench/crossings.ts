/**
 * `deno task bench:crossings`: the least a call through an index service can add, measured
 * with nothing of ours in the way (issues 56, 59). A session's own index answers over one
 * worker (the session → its index worker → back); through a service the same answer
 * crosses six times (the session → its link worker → the socket → the service → its index
 * worker → back the same way). Both are timed here bare, with the payloads a real call
 * carries: a question line of about 600 bytes, an answer of `k` matches shaped as the
 * index's (cloned as an object from an index worker; made a line of JSON by the service,
 * read as a line by the link worker and parsed by the session), 3 ms idle before each
 * round, the two ways in turns. The difference of their medians is the floor the service's
 * extra crossings cost on this machine, to read beside `bench:service-answers` in the same
 * run (that bench prints it too).
 *
 * Options: --matches 0,10,100, --rounds 300. Run as `crossings.ts peer <socket>`, it is the
 * service's side.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { V8_FLAGS } from "../src/runtime_flags.ts";
import { crossingLines, writeLine } from "./crossing_lines.ts";

const WORKER = new URL("./crossings_worker.ts", import.meta.url).href;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A question line as a session sends one (its size, not its meaning). */
function questionLine(matches: number): string {
  return JSON.stringify({ t: "scan", id: 1, matches, request: { pad: "x".repeat(560) } });
}

/** What each way took, the median of `rounds` rounds (ms). */
export interface Crossings {
  matches: number;
  /** The session's own index: one worker, there and back. */
  own: number;
  /** Through a service: link worker, socket, service, its index worker, and back. */
  service: number;
}

/** Times both ways for answers of each size in `matches`. */
export async function crossings(matches: number[], rounds = 300): Promise<Crossings[]> {
  const folder = Deno.makeTempDirSync({ prefix: "fts-crossings-" });
  const socket = `${folder}/s.sock`;
  const peer = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", V8_FLAGS, new URL(import.meta.url).pathname, "peer", socket],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const own = new Worker(WORKER, { type: "module", name: "index" });
  const link = new Worker(WORKER, { type: "module", name: "link" });
  try {
    for (let i = 0; i < 250; i++) {
      try {
        Deno.statSync(socket);
        break;
      } catch {
        await sleep(20);
      }
    }
    const ask = (worker: Worker, message: unknown, parse: boolean) =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        worker.onmessage = (event) => {
          if (parse) JSON.parse((event.data as { line: string }).line);
          resolve(performance.now() - t0);
        };
        worker.postMessage(message);
      });
    await ask(link, { type: "init", socket }, false); // connected
    const out: Crossings[] = [];
    for (const k of matches) {
      const ownMs: number[] = [];
      const serviceMs: number[] = [];
      for (let round = 0; round < rounds + 20; round++) {
        await sleep(3);
        const viaOwn = await ask(own, { t: "scan", id: round, matches: k }, false);
        await sleep(3);
        const line = questionLine(k);
        const viaService = await ask(link, { type: "send", root: 0, line }, true);
        if (round < 20) continue; // warm-up
        ownMs.push(viaOwn);
        serviceMs.push(viaService);
      }
      out.push({ matches: k, own: median(ownMs), service: median(serviceMs) });
    }
    return out;
  } finally {
    own.terminate();
    link.terminate();
    peer.kill();
    await peer.status;
    Deno.removeSync(folder, { recursive: true });
  }
}

/** The service's side: reads question lines, asks its index worker, writes answer lines. */
async function servePeer(socket: string): Promise<void> {
  const index = new Worker(WORKER, { type: "module", name: "index" });
  const listener = Deno.listen({ transport: "unix", path: socket });
  for await (const conn of listener) {
    for await (const line of crossingLines(conn)) {
      const question = JSON.parse(line);
      const answer = await new Promise((resolve) => {
        index.onmessage = (event) => resolve(event.data);
        index.postMessage({ t: "scan", id: question.id, matches: question.matches });
      });
      await writeLine(conn, JSON.stringify(answer));
    }
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "peer") await servePeer(Deno.args[1]!);
  else {
    const { values } = parseArgs({
      args: Deno.args,
      options: {
        matches: { type: "string", default: "0,10,100" },
        rounds: { type: "string", default: "300" },
      },
    });
    const sizes = values.matches.split(",").map(Number);
    console.log("| matches | own index ms | through a service ms | the service's floor ms |");
    console.log("| --- | --- | --- | --- |");
    for (const c of await crossings(sizes, Number(values.rounds))) {
      const floor = c.service - c.own;
      console.log(
        `| ${c.matches} | ${c.own.toFixed(3)} | ${c.service.toFixed(3)} | +${floor.toFixed(3)} |`,
      );
    }
  }
}
