/**
 * `deno task bench:index`: the live index (contract §18) through MCP, in one run per
 * tree: a call right at start-up with `INDEX=off` and with `INDEX=on` (the index builds
 * meanwhile; servers started in turns, the median of each), the time to `ready` after start, repeated windowed newest-100 calls each
 * with another window (so no response cache could help), a whole-root `**\/*.md` and a
 * `path` subfolder question, beside fd for one equivalent walk and the bare two-worker
 * `readDirSync` + `lstatSync` floor measured in the same run, with the peak RSS; the
 * barrier before an indexed answer on its own (a watch worker on the tree, in this process,
 * asked for a barrier again and again, idle); and how long a ready index takes to be
 * ready again after 20,000 file times changed at once (and who answered the call asked
 * right after); and the same server used as a user does, a windowed question about once a
 * second from start-up, until it is ready (how long that takes, and each call meanwhile).
 *
 * Each indexed answer also says whether it was counted (contract §26: `totalMatches` given),
 * and a newest-100 with no window is asked too (the widest a count could be). The ready
 * index's glob, `path` and no-window questions are each asked `--runs` times (median).
 *
 * Options: --sizes 500k,home-2m, --runs 5, --dir <where trees are kept>, --only answers (the
 * answers of a ready index and of `INDEX=off` alone: no start-up, burst, barrier or busy run),
 * --days 30 (each window 30 days long, a week apart, instead of 7), --back 400 (the first window
 * ending 400 days before the trees' "now": among a home tree's old files), --shared off (each
 * server's index in its own process: `SHARED_INDEX`, contract §28), --only changes (the journal
 * of `fs.changes_since`: its memory per change and a changes call's cost after 1,000 and
 * 100,000 changes, beside fd: changes.ts).
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
import { processMemoryMb } from "./process_memory.ts";
import { ensureTree } from "./tree.ts";
import { fd, floor, someFiles, todayWindows, window, windowsOfDays } from "./walkers.ts";
import { benchChanges } from "./changes.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";
import { RootWatch } from "../src/index/watch/root_watch.ts";
import { DEFAULT_QUEUE_LIMIT } from "../src/index/watch/cookies.ts";
import { WORKER_MODULES } from "../src/worker_modules.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "500k,home-2m" },
    runs: { type: "string", default: "5" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
    only: { type: "string" },
    days: { type: "string", default: "7" },
    back: { type: "string", default: "0" },
    shared: { type: "string" },
  },
});
windowsOfDays(Number(values.days), Number(values.back));
const ANSWERS_ONLY = values.only === "answers";
const RUNS = Number(values.runs);
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** How long the "call every second" pattern waits for `ready` at most. */
const BUSY_CAP_MS = 600_000;

async function server(root: string, index: "on" | "off") {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, MAIN, "serve", root],
    env: {
      INDEX: index,
      MAX_FILES_SCANNED: "10000000",
      MAX_DIRECTORIES_SCANNED: "10000000",
      SCAN_TIMEOUT_MS: "600000",
      ...(values.shared ? { SHARED_INDEX: values.shared } : {}),
    },
    stderr: "inherit",
  });
  const client = new Client({ name: "bench-index", version: "0" });
  await client.connect(transport);
  /** How many answers gave a total (contract §26), of how many. */
  const counted = { yes: 0, of: 0 };
  const call = async (args: Record<string, unknown>) => {
    const t0 = performance.now();
    const r = await client.callTool({
      name: "fs.search_by_time",
      arguments: { timeField: "modified", limit: 100, ...args },
    });
    if (r.isError) throw new Error(JSON.stringify(r.content));
    const ms = performance.now() - t0;
    counted.of++;
    const stats = (r.structuredContent as { stats: { totalMatches?: number } }).stats;
    if (stats.totalMatches !== undefined) counted.yes++;
    return ms;
  };
  const state = async () => {
    const r = await client.callTool({ name: "fs.list_roots", arguments: {} });
    return (r.structuredContent as {
      roots: {
        index?: { state: string; entries: number; reason?: string; lastWalk?: string };
      }[];
    })
      .roots[0]!.index;
  };
  const rssMb = async () => (await processMemoryMb(transport.pid!)).peak;
  return { call, counted, state, rssMb, close: () => client.close() };
}

/** The barrier alone: a watch worker on `root`, asked for `n` barriers one after another (ms each). */
async function barriers(root: string, n: number): Promise<number[]> {
  const cookies = Deno.makeTempDirSync({ prefix: "fts-bench-cookies-" });
  let ready!: () => void;
  const watching = new Promise<void>((resolve) => (ready = resolve));
  const watch = new RootWatch({
    url: WORKER_MODULES.watch,
    readPaths: [root],
    rootReal: root,
    cookies,
    queueLimit: DEFAULT_QUEUE_LIMIT,
  }, { ready, changes: () => {}, lost: (why) => console.error(`barrier bench: ${why}`) });
  await watching;
  const ms: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      if (!(await watch.barrier(2000))) throw new Error("a barrier did not pass");
      ms.push(performance.now() - t0);
    }
  } finally {
    watch.close();
    Deno.removeSync(cookies, { recursive: true });
  }
  return ms;
}

console.log(
  `Machine: ${os.cpus().length} cores (${
    os.cpus()[0]?.model ?? "?"
  }), Deno ${Deno.version.deno}; medians of ${RUNS} runs.\n`,
);
/** How long after its start a server's root index is ready (or given up: `off`). */
async function untilSettled(live: Awaited<ReturnType<typeof server>>, startedAt: number) {
  for (;;) {
    const index = await live.state();
    if (index?.state === "ready" || index?.state === "off") {
      return { ms: performance.now() - startedAt, index };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const size of values.sizes.split(",")) {
  const { root, entries } = ensureTree(values.dir, size);
  todayWindows(size.endsWith("-today"));
  if (values.only === "changes") {
    await fd(root, 0); // the page cache warm
    const fdMs: number[] = [];
    for (let k = 1; k <= RUNS; k++) fdMs.push(await fd(root, k));
    await benchChanges(root, median(fdMs), size);
    continue;
  }
  const sub = [...Deno.readDirSync(root)].filter((e) => e.isDirectory).map((e) => e.name)
    .sort()[0]!;
  const questions = {
    glob: { glob: "**/*.md" },
    globWindow: { glob: "**/*.md", ...window(1) },
    path: { path: sub, ...window(1) },
    all: {},
  };
  await fd(root, 0); // the page cache warm for everyone, the first start-up call included
  // A call right at start-up, with the index off and on (building meanwhile), in turns.
  const starts: Record<"on" | "off", number[]> = { on: [NaN], off: [NaN] };
  for (let k = 0; k < (ANSWERS_ONLY ? 0 : RUNS); k++) {
    for (const mode of ["off", "on"] as const) {
      const fresh = await server(root, mode);
      starts[mode].push(await fresh.call(window(1)));
      await fresh.close();
    }
  }
  const offStartMs = median(starts.off);
  const onStartMs = median(starts.on);
  // INDEX=off: the cold walk repeated.
  const cold = await server(root, "off");
  await cold.call(window(0));
  const coldMs: number[] = [];
  for (let k = 1; k <= RUNS; k++) coldMs.push(await cold.call(window(k)));
  const coldGlob = await cold.call(questions.glob);
  const coldGlobWindow = await cold.call(questions.globWindow);
  const coldPath = await cold.call(questions.path);
  const coldAll = await cold.call(questions.all);
  await cold.close();

  // INDEX=on: the same call right at start-up (the index builds meanwhile), then ready.
  const startedAt = performance.now();
  const live = await server(root, "on");
  const { ms: readyMs, index } = await untilSettled(live, startedAt);
  // At least 10 windowed questions: the first ones after `ready` meet the fill's garbage.
  const repeats: number[] = [];
  for (let k = 2; k < 2 + Math.max(RUNS, 10); k++) repeats.push(await live.call(window(k)));
  const windowedCounted = `${live.counted.yes} of ${live.counted.of}`;
  // The same question asked `RUNS` times: one call alone is within a millisecond's noise.
  const asked = async (args: Record<string, unknown>) => {
    const ms: number[] = [];
    for (let k = 0; k < RUNS; k++) ms.push(await live.call(args));
    return median(ms);
  };
  const liveGlob = await asked(questions.glob);
  const liveGlobWindow = await asked(questions.globWindow);
  const livePath = await asked(questions.path);
  const before = live.counted.yes;
  const liveAll = await asked(questions.all);
  const allCounted = live.counted.yes - before === RUNS;
  const rss = await live.rssMb();
  const extra = !ANSWERS_ONLY;
  // 20,000 file times changed at once (their own times again: the tree stays as made),
  // then a call at once, then the time until the index is ready again.
  const burst = extra ? someFiles(root, 20_000) : [];
  const burstAt = performance.now();
  for (const file of burst) {
    const { mtime, atime } = Deno.statSync(file);
    Deno.utimeSync(file, atime!, mtime!);
  }
  const afterBurstMs = extra ? await live.call(window(Math.max(RUNS, 10) + 2)) : NaN;
  const afterBurst = await live.state();
  const { ms: readyAgainMs } = await untilSettled(live, burstAt);
  await live.close();
  const barrierMs = extra ? await barriers(root, 50) : [NaN];
  // INDEX=on in use: a windowed question about once a second from start-up (each with
  // another window), until the index is ready; how long that takes, and the calls meanwhile.
  const busyAt = performance.now();
  const busy = extra ? await server(root, "on") : null;
  const during: number[] = [];
  let busyReady = NaN;
  for (let k = 0; busy !== null && performance.now() - busyAt < BUSY_CAP_MS; k++) {
    const t0 = performance.now();
    during.push(await busy.call(window(2 + (k % 40))));
    const now = await busy.state();
    if (now?.state === "ready" || now?.state === "off") {
      busyReady = performance.now() - busyAt;
      break;
    }
    const left = 1000 - (performance.now() - t0);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  }
  const busyRss = busy === null ? NaN : await busy.rssMb();
  await busy?.close();

  const fdMs: number[] = [];
  for (let k = 1; k <= RUNS; k++) fdMs.push(await fd(root, k));
  const floorMs: number[] = [];
  for (let k = 0; k < Math.min(RUNS, 3); k++) floorMs.push(await floor(root));

  const f = median(fdMs);
  const fl = median(floorMs);
  const rows: [string, number][] = [
    ["fd, one windowed walk (median)", f],
    ["Deno floor: two-worker readDirSync + lstatSync (median)", fl],
    ["INDEX=off: a call right at start-up (median)", offStartMs],
    ["INDEX=off: windowed newest-100 (median)", median(coldMs)],
    ["INDEX=off: `**/*.md`, whole root", coldGlob],
    ["INDEX=off: `**/*.md` in a window", coldGlobWindow],
    ["INDEX=off: a `path` subfolder, windowed", coldPath],
    ["INDEX=off: newest-100, no window", coldAll],
    ["INDEX=on: the same call right at start-up (median)", onStartMs],
    ["INDEX=on: `ready` after start", readyMs],
    ["INDEX=on: windowed newest-100, another window each (median)", median(repeats)],
    ["INDEX=on: `**/*.md`, whole root (median)", liveGlob],
    ["INDEX=on: `**/*.md` in a window (median)", liveGlobWindow],
    ["INDEX=on: a `path` subfolder, windowed (median)", livePath],
    ["INDEX=on: newest-100, no window (median)", liveAll],
    ["INDEX=on, a call every second: `ready` after start", busyReady],
    [
      "INDEX=on, a call every second: each call while it fills (median)",
      during.length === 0 ? NaN : median(during),
    ],
  ];
  console.log(`### ${size} tree (${entries.toLocaleString("en")} entries)\n`);
  console.log("| what | ms | x fd | x floor |");
  console.log("|---|---:|---:|---:|");
  for (const [what, ms] of rows) {
    if (Number.isNaN(ms)) continue; // not measured in this run (--only)
    console.log(
      `| ${what} | ${ms.toFixed(ms < 100 ? 1 : 0)} | ${(ms / f).toFixed(3)} | ${
        (ms / fl).toFixed(2)
      } |`,
    );
  }
  console.log(
    `\nIndex: ${index?.state} with ${(index?.entries ?? 0).toLocaleString("en")} entries${
      index?.reason ? ` (${index.reason})` : ""
    }; start-up call with the index on / off: ${(onStartMs / offStartMs).toFixed(2)}x; ` +
      `peak RSS of the server process (VmHWM, workers included) ${rss} MB (${busyRss} MB with a ` +
      `call every second; ${during.length} calls before it was ready${
        Number.isNaN(busyReady) ? `: not ready within ${BUSY_CAP_MS / 1000} s` : ""
      }).\n`,
  );
  console.log(
    `Counted (contract §26: totalMatches given): windowed newest-100 ${windowedCounted}; ` +
      `newest-100 with no window: ${allCounted ? "yes" : "no"}.\n`,
  );
  if (!extra) continue;
  console.log(
    `Barrier alone, idle, 50 in a row: median ${median(barrierMs).toFixed(2)} ms, slowest ${
      Math.max(...barrierMs).toFixed(2)
    } ms. After ${burst.length.toLocaleString("en")} file times changed at once: the call ` +
      `asked at once took ${afterBurstMs.toFixed(0)} ms (${
        afterBurst?.lastWalk ? `a walk: ${afterBurst.lastWalk}` : "from the index"
      }); ready again ${readyAgainMs.toFixed(0)} ms after the burst began.\n`,
  );
}
