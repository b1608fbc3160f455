/**
 * `deno task bench:service-answers`: the same questions on the same ready index, asked of
 * a session's own index (`SHARED_INDEX=off`) and through its index service (contract
 * §28a: at most 1.1x plus 5 ms; issue 59: 1.1x), both sessions ready and asked in turns,
 * medians of `--runs`: windowed newest-100 (a week each, each run another week), newest-100
 * with no window, `**\/*.md` within a window, a `path` subfolder, and the second and third
 * pages of a windowed question (their cursors). Every service of this user is stopped before
 * each tree (none of an earlier build is left to answer). Then, in the same
 * run, the floor of the service's extra crossings with nothing of ours in the way
 * (`bench:crossings`): what 1.1x leaves room for is read against it.
 *
 * Options: --sizes 500k,home-2m-184k, --runs 7, --dir <where trees are kept>.
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
import { crossings } from "./crossings.ts";
import { stopAll } from "./services.ts";
import { ensureTree } from "./tree.ts";
import { todayWindows, window } from "./walkers.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "500k,home-2m-184k" },
    runs: { type: "string", default: "7" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
  },
});
const RUNS = Number(values.runs);
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function server(root: string, shared: boolean) {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, "--allow-net", "--allow-run", MAIN, "serve", root],
    env: {
      INDEX: "on",
      SHARED_INDEX: shared ? "on" : "off",
      SHARED_INDEX_IDLE: "0",
      MAX_FILES_SCANNED: "10000000",
      MAX_DIRECTORIES_SCANNED: "10000000",
      SCAN_TIMEOUT_MS: "600000",
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-service-answers", version: "0" });
  await client.connect(transport);
  const call = async (args: Record<string, unknown>) => {
    const t0 = performance.now();
    const r = await client.callTool({
      name: "fs.search_by_time",
      arguments: { timeField: "modified", limit: 100, ...args },
    });
    if (r.isError) throw new Error(JSON.stringify(r.content));
    return {
      ms: performance.now() - t0,
      out: r.structuredContent as { nextCursor: string | null },
    };
  };
  const index = async () => {
    const r = await client.callTool({ name: "fs.list_roots", arguments: {} });
    return (r.structuredContent as {
      roots: { index: { state: string; answers: { index: number; walk: number } } }[];
    }).roots[0]!.index;
  };
  for (;;) {
    const i = await index();
    if (i.state === "ready") break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { call, index, close: () => client.close() };
}

/** The tree's first two top-level folders (each `path` question asks one of them). */
let tops: string[] = [];

/** The questions, each asked RUNS times (each run another window where it has one). */
const QUESTIONS: [string, (k: number) => Record<string, unknown>][] = [
  ["windowed newest-100", (k) => window(k)],
  ["newest-100, no window", () => ({})],
  ["**/*.md in a window", (k) => ({ glob: "**/*.md", ...window(k) })],
  ["a path subfolder", (k) => ({ path: tops[k % tops.length] })],
  ["a second page (limit 1000)", (k) => ({ limit: 1000, ...window(20 + k) })],
  ["a third page (limit 1000)", (k) => ({ limit: 1000, ...window(20 + k) })],
];

console.log(`Machine: ${os.cpus().length} cores, Deno ${Deno.version.deno}; medians of ${RUNS}.\n`);
for (const size of values.sizes.split(",")) {
  const { root, entries } = ensureTree(values.dir, size);
  todayWindows(size.endsWith("-today"));
  tops = [...Deno.readDirSync(root)].filter((e) => e.isDirectory).map((e) => e.name).sort()
    .slice(0, 2);
  console.log(`## ${size} (${entries} entries)\n`);
  // Both ready at once, each question asked of one then the other in turns (the first of
  // each pair alternating), so that the machine's drift falls on both alike.
  await stopAll();
  const sessions = [await server(root, false), await server(root, true)] as const;
  const results: Record<string, number[]> = {};
  for (const [name, args] of QUESTIONS) {
    const pages = name.startsWith("a second") ? 2 : name.startsWith("a third") ? 3 : 1;
    const ask = async (s: (typeof sessions)[number], k: number) => {
      let page = await s.call(args(k));
      for (let n = 1; n < pages && page.out.nextCursor; n++) {
        page = await s.call({ ...args(k), cursor: page.out.nextCursor });
      }
      return page.ms;
    };
    const ms: number[][] = [[], []];
    for (let k = 0; k < RUNS + 2; k++) {
      for (const which of k % 2 ? [1, 0] : [0, 1]) {
        await new Promise((resolve) => setTimeout(resolve, 3)); // idle between calls
        const took = await ask(sessions[which]!, k);
        if (k >= 2) ms[which]!.push(took); // two warm-ups
      }
    }
    results[name] = ms.map(median);
  }
  for (const [shared, s] of sessions.entries()) {
    const { answers } = await s.index();
    console.log(
      `${shared ? "Through the service" : "Its own index"}: answers ${JSON.stringify(answers)}.`,
    );
    await s.close();
  }
  console.log("\n| question | own index ms | through the service ms | added ms | ratio |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [name] of QUESTIONS) {
    const [own, via] = results[name]!;
    console.log(
      `| ${name} | ${own!.toFixed(2)} | ${via!.toFixed(2)} | ${(via! - own!).toFixed(2)} | ${
        (via! / own!).toFixed(2)
      }x |`,
    );
  }
  console.log("");
}

console.log("The same crossings bare, in this run (`bench:crossings`, medians of 300 rounds):\n");
console.log("| matches | own index ms | through a service ms | the service's floor ms |");
console.log("| --- | --- | --- | --- |");
for (const c of await crossings([0, 100])) {
  const floor = (c.service - c.own).toFixed(3);
  console.log(`| ${c.matches} | ${c.own.toFixed(3)} | ${c.service.toFixed(3)} | +${floor} |`);
}
