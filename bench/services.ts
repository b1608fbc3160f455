/**
 * The index services of this user, found in `/proc` by their command line (Linux), for the
 * benchmarks that start and stop them.
 *
 * @module
 */

/** Every index service now running; with `root`, those that hold it. */
export function services(root?: string): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const args = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      const at = args.indexOf("service");
      if (at < 0 || !args[at + 1]?.startsWith('{"roots":')) continue;
      const roots = (JSON.parse(args[at + 1]!) as { roots: { root: string }[] }).roots;
      if (root === undefined || roots.some((r) => r.root === root)) pids.push(Number(entry.name));
    } catch { /* ended, or not ours */ }
  }
  return pids;
}

/** Ends every index service (SIGTERM: as its idle end does) and waits until they are gone. */
export async function stopAll(): Promise<void> {
  for (const pid of services()) Deno.kill(pid, "SIGTERM");
  while (services().length > 0) await new Promise((r) => setTimeout(r, 100));
}
