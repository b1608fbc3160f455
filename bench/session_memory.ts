/**
 * `deno task bench:session-memory`: what sharing costs in memory (contract §28a), by the
 * proportional set size (PSS, `/proc/<pid>/smaps_rollup`) summed over every process of
 * the sessions and the services that serve them, servers started by `deno` itself (not
 * `npx`). Per tree: one session with five roots (the tree, a second tree, three folders
 * of 8 files) with `SHARED_INDEX=off` and then shared, each once every root is ready;
 * four sessions on two roots (the tree and a folder of 8 files), the total after each;
 * and what a root of 8 files adds (a session with the tree alone, then with the tree and
 * such a folder, shared). Every service of this user is stopped first and after. With
 * `--idle S`, the five-root session, both ways, also sits idle for S seconds once ready and
 * measured: the CPU time of its processes (the session and what serves it, every thread,
 * `/proc/<pid>/stat`) as a share of one core.
 *
 * Options: --sizes 500k,home-2m-184k, --dir <where trees are kept>, --second <size of the
 * second tree, default 100k>, --settle <s before each reading, default 60>, --idle <s, 0>.
 * The settle time must pass V8's memory reducer, which tidies each isolate's heap about 30 s
 * after its last burst of work (a fill's garbage: about 95 MB more before it on 500k); a reading
 * taken near that moment lands on either side of it.
 *
 * The sessions run a copy of the Deno executable (in a temp folder, named `deno`) that this
 * harness does not map: a page of the executable is counted in PSS as a share among every
 * process that maps it, and the harness, itself a Deno process, would take a share of each
 * page it touches too, from one process without sharing and from two (a session and its
 * service) with it. An MCP client, which starts the sessions in real use, is not a Deno
 * process. `--same-binary` runs them from the harness's own executable, as before.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import path from "node:path";
import os from "node:os";
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { processPssMb } from "./process_memory.ts";
import { ensureTree } from "./tree.ts";
import { services, stopAll } from "./services.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "500k,home-2m-184k" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
    second: { type: "string", default: "100k" },
    settle: { type: "string", default: "60" },
    idle: { type: "string", default: "0" },
    "same-binary": { type: "boolean", default: false },
  },
});
/** The Deno the sessions run: a copy the harness does not map (see above), or its own. */
const DENO = values["same-binary"] ? Deno.execPath() : copyOfDeno();

function copyOfDeno(): string {
  const dir = Deno.makeTempDirSync({ prefix: "fts-deno-" });
  Deno.copyFileSync(Deno.execPath(), `${dir}/deno`);
  globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  return `${dir}/deno`;
}
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

interface Session {
  client: Client;
  pid: number;
  close(): Promise<void>;
}

async function session(roots: string[], env: Record<string, string> = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: DENO,
    args: ["run", ...SERVER_FLAGS, "--allow-net", "--allow-run", MAIN, "serve", ...roots],
    env: { INDEX: "on", SHARED_INDEX_IDLE: "0", ...env },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-session-memory", version: "0" });
  await client.connect(transport);
  return { client, pid: transport.pid!, close: () => client.close() };
}

interface IndexState {
  state: string;
  shared?: { sessions?: number; reason?: string };
}

/** Waits until every root of `s` is ready (and, shared, served). */
async function untilReady(s: Session, shared: boolean): Promise<void> {
  for (;;) {
    const r = await s.client.callTool({ name: "fs.list_roots", arguments: {} });
    const roots = (r.structuredContent as { roots: { index: IndexState }[] }).roots;
    if (
      roots.every((x) => x.index.state === "ready" && (!shared || x.index.shared?.sessions))
    ) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** PSS in MB of the sessions and every service, after the settle time. */
async function pss(sessions: Session[]): Promise<{ total: number; parts: number[] }> {
  await new Promise((r) => setTimeout(r, Number(values.settle) * 1000));
  const pids = [...sessions.map((s) => s.pid), ...services()];
  const parts = await Promise.all(pids.map(processPssMb));
  return { total: parts.reduce((a, b) => a + b, 0), parts };
}

/** CPU seconds used so far by process `pid` (all its threads, user and system; USER_HZ 100). */
function cpuSeconds(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The share of one core the sessions and every service use over `--idle` seconds, idle. */
async function idleCpu(sessions: Session[]): Promise<string> {
  const seconds = Number(values.idle);
  await new Promise((r) => setTimeout(r, Number(values.settle) * 1000));
  const pids = [...sessions.map((s) => s.pid), ...services()];
  const before = pids.map(cpuSeconds);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const used = pids.map((pid, i) => cpuSeconds(pid) - before[i]!);
  const share = (x: number) => `${(100 * x / seconds).toFixed(2)}%`;
  return `${share(used.reduce((a, b) => a + b, 0))} of a core over ${seconds} s (${
    used.map(share).join(" + ")
  })`;
}

/** A folder of 8 files. */
function smallFolder(): string {
  const dir = Deno.makeTempDirSync({ prefix: "fts-small-" });
  for (let i = 0; i < 8; i++) Deno.writeTextFileSync(`${dir}/f${i}.txt`, `file ${i}\n`);
  return Deno.realPathSync(dir);
}

const line = (what: string, m: { total: number; parts: number[] }) =>
  `${what}: ${m.total} MB PSS (${m.parts.join(" + ")}).`;

console.log(
  `Machine: ${os.cpus().length} cores, Deno ${Deno.version.deno}; sessions run ${
    values["same-binary"] ? "the harness's Deno" : "a copy of it"
  }.\n`,
);
const second = ensureTree(values.dir, values.second).root;
const small = [smallFolder(), smallFolder(), smallFolder()];
for (const size of values.sizes.split(",")) {
  const { root, entries } = ensureTree(values.dir, size);
  console.log(`## ${size} (${entries} entries)\n`);
  const five = [root, second, ...small];
  await stopAll();

  const off = await session(five, { SHARED_INDEX: "off" });
  await untilReady(off, false);
  const offMem = await pss([off]);
  const offIdle = Number(values.idle) > 0 ? await idleCpu([off]) : null;
  await off.close();
  console.log(line("One session, five roots, SHARED_INDEX=off", offMem));
  if (offIdle) console.log(`Idle, SHARED_INDEX=off: ${offIdle}.`);

  await stopAll();
  const on = await session(five);
  await untilReady(on, true);
  const onMem = await pss([on]);
  const serving = services().length;
  const onIdle = Number(values.idle) > 0 ? await idleCpu([on]) : null;
  await on.close();
  console.log(line(`The same shared (${serving} service)`, onMem));
  if (onIdle) console.log(`Idle, shared (the session, then its service): ${onIdle}.`);
  console.log(`Ratio shared / off: ${(onMem.total / offMem.total).toFixed(2)}x.\n`);

  await stopAll();
  const sessions: Session[] = [];
  let before = 0;
  for (let n = 1; n <= 4; n++) {
    const s = await session([root, small[0]!]);
    sessions.push(s);
    await untilReady(s, true);
    const m = await pss(sessions);
    console.log(
      line(`${n} session(s) on two roots`, m) + (n > 1 ? ` +${m.total - before} MB.` : ""),
    );
    before = m.total;
  }
  for (const s of sessions) await s.close();

  await stopAll();
  const alone = await session([root]);
  await untilReady(alone, true);
  const aloneMem = await pss([alone]);
  await alone.close();
  await stopAll();
  const withSmall = await session([root, small[1]!]);
  await untilReady(withSmall, true);
  const withMem = await pss([withSmall]);
  await withSmall.close();
  console.log(line("The tree alone, shared", aloneMem));
  console.log(line("The tree and a folder of 8 files, shared", withMem));
  console.log(`A root of 8 files adds ${withMem.total - aloneMem.total} MB.\n`);
  await stopAll();
}
for (const dir of small) Deno.removeSync(dir, { recursive: true });
