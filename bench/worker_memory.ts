/**
 * `deno task bench:worker-memory`: what one idle worker of each kind costs its process, by
 * PSS (`/proc/self/smaps_rollup`), beside a worker of an empty module: `--count` workers of
 * a kind are started in a fresh process, left 4 s to load, and the growth is divided among
 * them. With the start task's V8 flags. Linux only.
 *
 * Options: --count 6.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { WORKER_MODULES } from "../src/worker_modules.ts";
import { V8_FLAGS } from "../src/runtime_flags.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { count: { type: "string", default: "6" }, kind: { type: "string" } },
});
const EMPTY = `data:application/javascript,${encodeURIComponent("self.onmessage = () => {};")}`;
const pssMb = () =>
  Number(/^Pss:\s+(\d+) kB/m.exec(Deno.readTextFileSync("/proc/self/smaps_rollup"))![1]) / 1024;

if (values.kind) {
  // One measurement, in a process of its own.
  const url = values.kind === "empty"
    ? EMPTY
    : WORKER_MODULES[values.kind as keyof typeof WORKER_MODULES].href;
  const before = pssMb();
  const workers = Array.from(
    { length: Number(values.count) },
    () => new Worker(url, { type: "module" }),
  );
  await new Promise((resolve) => setTimeout(resolve, 4000));
  console.log(((pssMb() - before) / workers.length).toFixed(1));
  for (const w of workers) w.terminate();
} else {
  for (const kind of ["empty", ...Object.keys(WORKER_MODULES)]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        V8_FLAGS,
        new URL(import.meta.url).pathname,
        "--kind",
        kind,
        "--count",
        values.count,
      ],
      stderr: "inherit",
    }).output();
    console.log(`${kind.padEnd(6)} ${new TextDecoder().decode(out.stdout).trim()} MB PSS each`);
  }
}
