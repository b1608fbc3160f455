/**
 * `deno task bench:first-minute`: the first minute of a shared index (contract §28a), every
 * service of this user stopped before each part, the servers started by `deno` itself:
 * the first call at start-up (a windowed newest-100; the call that starts the service)
 * beside the same call of an `INDEX=off` server, medians of `--runs`; three sessions
 * started at once, each asking its first call at once; three sessions asking their first
 * call at once while a service another session started builds the index; the time to `ready` of the
 * service's index idle and with a call a second, beside the Deno walk floor (two workers'
 * `readDirSync` + `lstatSync`) and `fd`, measured in the same run.
 *
 * Options: --sizes 500k,home-2m-184k, --runs 3, --dir <where trees are kept>.
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
import { ensureTree } from "./tree.ts";
import { stopAll } from "./services.ts";
import { fd, floor, todayWindows, window } from "./walkers.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "500k,home-2m-184k" },
    runs: { type: "string", default: "3" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
  },
});
const RUNS = Number(values.runs);
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s1 = (ms: number) => (ms / 1000).toFixed(1);

async function session(root: string, env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, "--allow-net", "--allow-run", MAIN, "serve", root],
    env: {
      INDEX: "on",
      SHARED_INDEX_IDLE: "0",
      MAX_FILES_SCANNED: "10000000",
      MAX_DIRECTORIES_SCANNED: "10000000",
      SCAN_TIMEOUT_MS: "600000",
      ...env,
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-first-minute", version: "0" });
  await client.connect(transport);
  const call = async (k: number) => {
    const t0 = performance.now();
    // Three walks of a large tree at once can take minutes: past the SDK's 60 s default.
    const r = await client.callTool(
      {
        name: "fs.search_by_time",
        arguments: { timeField: "modified", limit: 100, ...window(k) },
      },
      undefined,
      { timeout: 900_000 },
    );
    if (r.isError) throw new Error(JSON.stringify(r.content));
    return performance.now() - t0;
  };
  const state = async () => {
    const r = await client.callTool({ name: "fs.list_roots", arguments: {} });
    const index = (r.structuredContent as {
      roots: { index: { state: string; shared?: { sessions?: number } } }[];
    }).roots[0]!.index;
    return index.shared?.sessions ? index.state : "reached";
  };
  const ready = async () => (await state()) === "ready";
  return { call, ready, state, close: () => client.close() };
}

/** Starts a session, then asks `every` ms (0: never) until its index is ready: ms to ready. */
async function untilReady(root: string, every: number): Promise<number> {
  const t0 = performance.now();
  const s = await session(root, {});
  let k = 100;
  let next = performance.now();
  for (;;) {
    if (every > 0 && performance.now() >= next) {
      await s.call(k++);
      next = performance.now() + every;
    }
    if (await s.ready()) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const ms = performance.now() - t0;
  await s.close();
  return ms;
}

console.log(`Machine: ${os.cpus().length} cores, Deno ${Deno.version.deno}; medians of ${RUNS}.\n`);
for (const size of values.sizes.split(",")) {
  const { root, entries } = ensureTree(values.dir, size);
  todayWindows(size.endsWith("-today"));
  console.log(`## ${size} (${entries} entries)\n`);
  const off: number[] = [];
  const first: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const o = await session(root, { INDEX: "off" });
    off.push(await o.call(run));
    await o.close();
    await stopAll();
    const s = await session(root, {});
    first.push(await s.call(run));
    await s.close();
    await stopAll();
  }
  const walk = median(off);
  console.log(
    `First call at start-up: INDEX=off ${s1(walk)} s; shared, starting the service ${
      s1(median(first))
    } s (${(median(first) / walk).toFixed(2)}x; runs ${first.map(s1).join(", ")}).`,
  );
  const three = await Promise.all([0, 1, 2].map(async (n) => {
    const s = await session(root, {});
    const ms = await s.call(10 + n);
    return { ms, close: s.close };
  }));
  for (const t of three) await t.close();
  await stopAll();
  console.log(
    `Three sessions at once, first calls: ${three.map((t) => s1(t.ms)).join(", ")} s (${
      three.map((t) => (t.ms / walk).toFixed(2)).join(", ")
    }x the INDEX=off call).`,
  );
  // Three sessions asking at once while a service another session started builds the index.
  const opener = await session(root, {});
  while ((await opener.state()) !== "building") await new Promise((r) => setTimeout(r, 50));
  const joining = await Promise.all([0, 1, 2].map(async (n) => {
    const s = await session(root, {});
    const ms = await s.call(20 + n);
    return { ms, close: s.close };
  }));
  for (const t of joining) await t.close();
  await opener.close();
  await stopAll();
  console.log(
    `Three sessions at once during a build, first calls: ${
      joining.map((t) => s1(t.ms)).join(", ")
    } s (${joining.map((t) => (t.ms / walk).toFixed(2)).join(", ")}x the INDEX=off call).`,
  );
  const floorMs = await floor(root);
  const fdMs = await fd(root, 0);
  const idle = await untilReady(root, 0);
  await stopAll();
  const busy = await untilReady(root, 1000);
  await stopAll();
  console.log(
    `Ready: idle ${s1(idle)} s (${(idle / floorMs).toFixed(2)}x the floor), a call a second ${
      s1(busy)
    } s (${(busy / floorMs).toFixed(2)}x); floor ${s1(floorMs)} s, fd ${s1(fdMs)} s.\n`,
  );
}
