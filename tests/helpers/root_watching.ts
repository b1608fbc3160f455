/**
 * A root's watch worker started for a test, with the real worker module: returned once the
 * watch is ready.
 *
 * @module
 */
import { RootWatch, type WatchEvents, type WatchPlace } from "../../src/index/watch/root_watch.ts";
import { WORKER_MODULES } from "../../src/worker_modules.ts";

/**
 * Watches `root` (a real path) with private folder `cookies`; `place` and `events` add to or
 * override the defaults (no stalls, events dropped).
 */
export async function rootWatching(
  root: string,
  cookies: string,
  place: Partial<WatchPlace> = {},
  events: Partial<Omit<WatchEvents, "ready">> = {},
): Promise<RootWatch> {
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const watch = new RootWatch({
    url: WORKER_MODULES.watch,
    readPaths: [root],
    rootReal: root,
    cookies,
    queueLimit: 16_384,
    ...place,
  }, { ready, changes: () => {}, lost: () => {}, ...events });
  await isReady;
  return watch;
}
