/**
 * `deno task bench:build-parts`: where a root's build goes (issue 56: "measure each part of
 * the build"). A server with its own index (`SHARED_INDEX=off`) is started on the tree; each
 * of its threads' CPU time (`/proc/<pid>/task/<tid>/stat`) is sampled every 100 ms until the
 * root is ready, and each thread's span (from the first sample it worked in to the last) and
 * CPU are printed: the watch worker's plan (its read of the tree for links out, names and
 * kinds), the runtime's recursive watch (notify's thread, which walks the tree with
 * `follow_links` and stats every entry), the fill (the index worker and its helper). Then
 * the same root through its service (`SHARED_INDEX=on`): the service's phases as it says
 * them (`about`, asked every 100 ms). The Deno walk floor and `fd` are measured in the same
 * run. Linux only.
 *
 * Options: --sizes 500k, --runs 2, --dir <where trees are kept>.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import path from "node:path";
import os from "node:os";
import { ensureTree } from "./tree.ts";
import { stopAll } from "./services.ts";
import { fd, floor } from "./walkers.ts";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";
import { findServices } from "../src/service/service_control.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "500k" },
    runs: { type: "string", default: "2" },
    dir: { type: "string", default: path.join(os.tmpdir(), "fts-bench") },
  },
});
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const s2 = (ms: number) => (ms / 1000).toFixed(2);

/** Each thread of `pid`: its name and CPU time in ms. */
function threads(pid: number): Map<string, { name: string; ms: number }> {
  const found = new Map<string, { name: string; ms: number }>();
  for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/stat`);
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      found.set(task.name, { name, ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch { /* ended */ }
  }
  return found;
}

function spawn(root: string, shared: "on" | "off"): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...SERVER_FLAGS, "--allow-net", "--allow-run", MAIN, "serve", root],
    env: { INDEX: "on", SHARED_INDEX: shared, SHARED_INDEX_IDLE: "0" },
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
}

/** A build in the server's own process: each thread's span and CPU, and the build's time. */
async function own(root: string): Promise<void> {
  const t0 = performance.now();
  const server = spawn(root, "off");
  const spans = new Map<string, { name: string; first: number; last: number; ms: number }>();
  const sample = () => {
    const at = performance.now() - t0;
    for (const [tid, { name, ms }] of threads(server.pid)) {
      const span = spans.get(tid);
      if (!span) spans.set(tid, { name, first: at, last: at, ms });
      else if (ms > span.ms) Object.assign(span, { last: at, ms });
    }
  };
  const timer = setInterval(sample, 100);
  let said = "";
  for await (const chunk of server.stderr.pipeThrough(new TextDecoderStream())) {
    said += chunk;
    if (/ is ready: /.test(said)) break;
  }
  const readyAt = performance.now() - t0;
  clearInterval(timer);
  sample();
  server.kill("SIGTERM");
  await server.status;
  const build = / is ready: \d+ entries in ([\d.]+) s/.exec(said)?.[1];
  console.log(`  own: ready at ${s2(readyAt)} s from start (its build, as it says: ${build} s)`);
  for (
    const span of [...spans.values()].filter((s) => s.ms >= 50).sort((a, b) => a.first - b.first)
  ) {
    console.log(
      `    ${span.name.padEnd(16)} ${s2(span.first)}-${s2(span.last)} s, CPU ${s2(span.ms)} s`,
    );
  }
}

/** A build in the root's service: when the service is up, building and ready. */
async function inService(root: string): Promise<void> {
  await stopAll();
  const t0 = performance.now();
  const session = spawn(root, "on");
  session.stderr.cancel();
  const folder = `/tmp/file-time-search-${Deno.uid()}`;
  const seen: string[] = [];
  while (performance.now() - t0 < 600_000) {
    const found = await findServices(folder, Deno.uid()!).catch(() => "none");
    const about = typeof found === "string" ? undefined : found.find((f) => "about" in f);
    const state = about && "about" in about ? about.about.roots[0]?.state : undefined;
    if (state && !seen.includes(state)) {
      seen.push(state);
      console.log(`  service: ${state} at ${s2(performance.now() - t0)} s`);
    }
    if (state === "ready") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  session.kill("SIGTERM");
  await session.status;
  await stopAll();
}

for (const size of values.sizes.split(",")) {
  const { root, entries } = ensureTree(values.dir, size);
  console.log(`\n${size} (${entries} entries)`);
  for (let run = 1; run <= Number(values.runs); run++) {
    console.log(` run ${run}`);
    await own(root);
    await inService(root);
  }
  const floorMs = await floor(root);
  const fdMs = await fd(root, 0);
  console.log(` floor ${s2(floorMs)} s, fd ${s2(fdMs)} s`);
}
