/**
 * What an idle server costs (issue 39, "Idle means idle"): a server started on 1 and on 4
 * small home-like roots (3,400 entries each), its indexes ready and nobody asking; the CPU
 * time of the whole process (every thread) over `--seconds`, from `/proc/<pid>/stat`
 * (Linux), as a share of one core; and, with `--tree`, the same for one root of a bench
 * tree (`500k`, `home-2m`), with how long its background check's rounds take.
 *
 * `deno task bench:idle --seconds 600 --roots 1,4`
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import path from "node:path";
import os from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";
import { ensureTree, generateHomeTree } from "./tree.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    seconds: { type: "string", default: "600" },
    roots: { type: "string", default: "1,4" },
    tree: { type: "string" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
  },
});
const SECONDS = Number(values.seconds);
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
/** Clock ticks a second, as `/proc/<pid>/stat` counts CPU time (USER_HZ). */
const TICKS = 100;

/** CPU seconds used so far by process `pid`, all its threads, user and system. */
async function cpuSeconds(pid: number): Promise<number> {
  const out = await new Deno.Command("cat", { args: [`/proc/${pid}/stat`], stdout: "piped" })
    .output();
  const fields = new TextDecoder().decode(out.stdout).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime
}

/** Small home-like roots, made once. */
function smallRoots(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const root = path.join(values.dir, `idle-3400-${i}`);
    try {
      Deno.statSync(root + ".done");
    } catch {
      try {
        Deno.removeSync(root, { recursive: true });
      } catch { /* none yet */ }
      generateHomeTree(root, 3_400, 42 + i);
      Deno.writeTextFileSync(root + ".done", "");
    }
    return root;
  });
}

interface RootIndex {
  state: string;
  checkedWhole?: string;
  checkEnded?: string;
}

async function idle(roots: string[]): Promise<void> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, MAIN, "serve", ...roots],
    env: { INDEX: "on" },
    stderr: "inherit",
  });
  const client = new Client({ name: "bench-idle", version: "0" });
  await client.connect(transport);
  const indexes = async () => {
    const r = await client.callTool({ name: "fs.list_roots", arguments: {} });
    return (r.structuredContent as { roots: { index?: RootIndex }[] }).roots.map((x) => x.index);
  };
  const started = performance.now();
  while (!(await indexes()).every((i) => i?.state === "ready")) {
    await new Promise((r) => setTimeout(r, 200));
  }
  const readyS = (performance.now() - started) / 1000;
  const pid = transport.pid!;
  // A call to every root: a root's index worker is made on its first answer.
  await client.callTool({
    name: "fs.search_by_time",
    arguments: { root: "*", timeField: "modified", limit: 1 },
  });
  const before = await cpuSeconds(pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const used = (await cpuSeconds(pid)) - before;
  const wall = (performance.now() - t0) / 1000;
  const after = await indexes();
  await client.close();
  const share = (100 * used / wall).toFixed(2);
  console.log(
    `${roots.length} root(s): ready in ${readyS.toFixed(1)} s; idle ${wall.toFixed(0)} s: ` +
      `${used.toFixed(2)} CPU s = ${share}% of one core` +
      ` (${(60 * used / wall).toFixed(2)} s a minute)`,
  );
  for (const [i, index] of after.entries()) {
    console.log(
      `  root ${i}: ${
        JSON.stringify({ checkedWhole: index?.checkedWhole, checkEnded: index?.checkEnded })
      }`,
    );
  }
}

if (values.tree) await idle([ensureTree(values.dir, values.tree).root]);
else for (const n of values.roots.split(",").map(Number)) await idle(smallRoots(n));
