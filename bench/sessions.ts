/**
 * `deno task bench:sessions`: one index per root for every session (contract §28). Per
 * tree: first one session with its own index (`SHARED_INDEX=off`), until ready: its peak
 * resident memory and its inotify watches, the reference. Then sessions started one after
 * another (1, 2, 4) through the SDK client over stdio as a client starts them: the first
 * starts the root's service and waits for it to be ready; each later one's first windowed
 * newest-100, timed and who answered, beside fd's walk of the same window in the same run.
 * With 4 sessions: the resident memory of every process (sessions and service) together,
 * as RSS and as PSS (shared pages divided among the processes that map them), the watches
 * they hold (from `/proc`), their CPU while V8 tidies up after the calls (`--settle`
 * seconds) and then over an idle minute, and 200 calls from the 4 sessions at once (who
 * answered each).
 *
 * Options: --sizes 500k,home-2m-184k, --dir <where trees are kept>, --idle <s, default 60>,
 * --settle <s, default 30>, --pair (first, two sessions with their own index at once).
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
import { processMemoryMb, processPssMb } from "./process_memory.ts";
import { ensureTree } from "./tree.ts";
import { services } from "./services.ts";
import { fd, todayWindows, window } from "./walkers.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "500k,home-2m-184k" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
    idle: { type: "string", default: "60" },
    settle: { type: "string", default: "30" },
    pair: { type: "boolean", default: false },
  },
});
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const TICKS = 100; // clock ticks a second (USER_HZ)

interface Session {
  client: Client;
  pid: number;
  close(): Promise<void>;
}

async function session(root: string, env: Record<string, string>): Promise<Session> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, MAIN, "serve", root],
    env: { INDEX: "on", ...env },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-sessions", version: "0" });
  await client.connect(transport);
  return { client, pid: transport.pid!, close: () => client.close() };
}

interface IndexState {
  state: string;
  reason?: string;
  answers: { index: number; walk: number };
  lastWalk?: string;
  shared?: { sessions?: number; reason?: string };
}

async function indexOf(s: Session): Promise<IndexState> {
  const r = await s.client.callTool({ name: "fs.list_roots", arguments: {} });
  return (r.structuredContent as { roots: { index: IndexState }[] }).roots[0]!.index;
}

async function untilReady(s: Session): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const index = await indexOf(s);
    if (index.state === "ready" || index.state === "off") return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function search(s: Session, k: number): Promise<number> {
  const t0 = performance.now();
  await s.client.callTool({
    name: "fs.search_by_time",
    arguments: { timeField: "modified", limit: 100, ...window(k) },
  });
  return performance.now() - t0;
}

function watches(pid: number): number {
  const out = new Deno.Command("sh", {
    args: ["-c", `cat /proc/${pid}/fdinfo/* 2>/dev/null`],
    stdout: "piped",
  }).outputSync();
  return new TextDecoder().decode(out.stdout).split("\n")
    .filter((l) => l.startsWith("inotify wd:")).length;
}

function cpuTicks(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime, stime
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

console.log(`Machine: ${os.cpus().length} cores, Deno ${Deno.version.deno}.\n`);
for (const size of values.sizes.split(",")) {
  const { root, entries } = ensureTree(values.dir, size);
  todayWindows(size.endsWith("-today"));
  const realRoot = Deno.realPathSync(root);
  for (const pid of services(realRoot)) Deno.kill(pid, "SIGKILL");
  console.log(`## ${size} (${entries} entries)\n`);

  // The reference: one session with its own index; with --pair, a second beside it (as
  // before issue 49: on a tree near the watch limit, the second's watch fails).
  const own = await session(root, { SHARED_INDEX: "off" });
  const ownReadyMs = await untilReady(own);
  await search(own, 0);
  const ownMem = await processMemoryMb(own.pid);
  const ownWatches = watches(own.pid);
  if (values.pair) {
    const second = await session(root, { SHARED_INDEX: "off" });
    await untilReady(second);
    const t0 = performance.now();
    await search(second, 1);
    const { state, reason, lastWalk } = await indexOf(second);
    console.log(
      `Two sessions with their own index at once: the second's index ${state}${
        reason ? ` (${reason})` : ""
      }; its call ${(performance.now() - t0).toFixed(0)} ms${
        lastWalk ? `, walked (${lastWalk})` : ", by its index"
      }.\n`,
    );
    await second.close();
  }
  await own.close();
  console.log(
    `One session, its own index: ready after ${
      (ownReadyMs / 1000).toFixed(1)
    } s, peak RSS ${ownMem.peak} MB, ${ownWatches} watches.\n`,
  );

  // Sessions one after another, sharing.
  const sessions: Session[] = [];
  sessions.push(await session(root, {}));
  const readyMs = await untilReady(sessions[0]!);
  console.log(
    `Session 1 started the service; its index ready after ${(readyMs / 1000).toFixed(1)} s.\n`,
  );
  console.log("| session | first windowed newest-100 ms | fd ms | ratio | answered by |");
  console.log("| --- | --- | --- | --- | --- |");
  for (let n = 2; n <= 4; n++) {
    const s = await session(root, {});
    sessions.push(s);
    const ms = await search(s, n);
    const fdMs = await fd(root, n);
    const index = await indexOf(s);
    const by = index.answers.index === 1 ? "the index" : `a walk (${index.lastWalk})`;
    console.log(
      `| ${n} | ${ms.toFixed(0)} | ${fdMs.toFixed(0)} | ${(ms / fdMs).toFixed(3)} | ${by} |`,
    );
  }
  const servicePids = services(realRoot);
  const all = [...sessions.map((s) => s.pid), ...servicePids];
  /** Every process's memory now, summed: RSS and PSS, against one session's peak RSS. */
  const memory = async (when: string) => {
    const rss = (await Promise.all(all.map((pid) => processMemoryMb(pid)))).map((m) => m.rss);
    const pss = await Promise.all(all.map((pid) => processPssMb(pid)));
    const ratio = (mb: number[]) =>
      `${sum(mb)} MB (${mb.join(" + ")}), ${(sum(mb) / ownMem.peak).toFixed(2)}x`;
    console.log(
      `4 sessions and ${servicePids.length} service ${when}: RSS ${ratio(rss)}; PSS ${ratio(pss)}.`,
    );
  };
  await memory("right after the calls");
  const held = sum(all.map(watches));
  console.log(`Watches: ${held} (one session: ${ownWatches}).`);

  // Idle: nobody asks. First while V8 tidies up after the calls, then idle proper.
  for (const [what, seconds] of [["settling", values.settle], ["idle", values.idle]] as const) {
    const before = all.map(cpuTicks);
    await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
    const ticks = sum(all.map(cpuTicks)) - sum(before);
    console.log(
      `${what === "idle" ? "Idle" : "Right after the calls"} ${seconds} s: ${
        (100 * ticks / TICKS / Number(seconds)).toFixed(2)
      }% of one core, all processes together (${
        all.map((pid, i) => cpuTicks(pid) - before[i]!).join(" + ")
      } ticks).`,
    );
  }
  await memory("after idle");

  // 200 calls from the 4 sessions at once.
  const counts = await Promise.all(sessions.map(indexOf));
  await Promise.all(
    sessions.flatMap((s, i) => Array.from({ length: 50 }, (_, k) => search(s, 10 + i * 50 + k))),
  );
  const after = await Promise.all(sessions.map(indexOf));
  const byIndex = sum(after.map((a, i) => a.answers.index - counts[i]!.answers.index));
  const walked = sum(after.map((a, i) => a.answers.walk - counts[i]!.answers.walk));
  const whys = [...new Set(after.map((a) => a.lastWalk).filter(Boolean))];
  console.log(
    `200 calls from 4 sessions at once: ${byIndex} answered by the index, ${walked} walked${
      whys.length ? ` (${whys.join("; ")})` : ""
    }.\n`,
  );
  for (const s of sessions) await s.close();
  for (const pid of services(realRoot)) Deno.kill(pid, "SIGKILL");
}
