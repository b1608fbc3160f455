/**
 * The index services of this user, found in `/proc` by their command line (Linux), for the
 * benchmarks that start and stop them: `service NAME[,NAME...]`, each name a root's service
 * (socket_folder.ts; no path on a command line, contract §28a).
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };
import { DEFAULT_CHANGES, DEFAULT_INDEX_MAX_ENTRIES, DEFAULT_LIMITS } from "../src/config.ts";
import { buildOf } from "../src/wire/mod.ts";
import { serviceName } from "../src/link/mod.ts";

const BUILD = (await buildOf(
  denoJson.version,
  new URL("..", import.meta.url).pathname.replace(/\/$/, ""),
))!;

/** Every index service now running; with `root`, those that hold it (default settings). */
export function services(root?: string): number[] {
  const name = root === undefined ? null : serviceName(BUILD, root, {
    maxEntries: DEFAULT_INDEX_MAX_ENTRIES,
    maxDepth: DEFAULT_LIMITS.maxDepth,
    changes: DEFAULT_CHANGES,
  });
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const args = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      const at = args.indexOf("service");
      const names = args[at + 1]?.split(",") ?? [];
      if (at < 0 || !names.every((n) => /^[\w.+-]+-[0-9a-f]{16}$/.test(n))) continue;
      if (name === null || names.includes(name)) pids.push(Number(entry.name));
    } catch { /* ended, or not ours */ }
  }
  return pids;
}

/** Ends every index service (SIGTERM: as its idle end does) and waits until they are gone. */
export async function stopAll(): Promise<void> {
  for (const pid of services()) Deno.kill(pid, "SIGTERM");
  while (services().length > 0) await new Promise((r) => setTimeout(r, 100));
}
