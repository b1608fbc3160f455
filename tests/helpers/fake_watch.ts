/**
 * The URL of the test watch worker (fake_watch_worker.ts) in a given mode: `fail`, `error`
 * or `rescan` at the `at`-th ping (or `after` ms after it is answered), or `hold`; and
 * {@linkcode watchRead}, to wait until a watch in `hold` mode has read a change; and the
 * URL of the lagging watch worker (lagging_watch_worker.ts), with the way to end its lag.
 *
 * @module
 */

/** Where the fake watch in `hold` mode tells the paths of each event it reads. */
export const READ_CHANNEL = "fake-watch-read";

/** The fake watch worker's module, told what to do through its URL. */
export function fakeWatch(mode: string, at = 1, after?: number): URL {
  const url = new URL("./fake_watch_worker.ts", import.meta.url);
  url.searchParams.set("mode", mode);
  url.searchParams.set("at", String(at));
  if (after !== undefined) url.searchParams.set("after", String(after));
  return url;
}

/** Where each fake watch tells the root it sets its watch up on. */
export const SET_UP_CHANNEL = "fake-watch-set-up";

/** Counts the watches fake watch workers set up from now on. Close it after the test. */
export function watchSetUps(): { count(): number; close(): void } {
  const channel = new BroadcastChannel(SET_UP_CHANNEL);
  let count = 0;
  channel.onmessage = () => count++;
  return { count: () => count, close: () => channel.close() };
}

/**
 * Listens to what fake watches in `hold` mode read: `until(() => read.has(name))` waits
 * until a watch has read an event on a path ending in `name`. Close it after the test.
 */
export function watchRead(): { has(name: string): boolean; close(): void } {
  const channel = new BroadcastChannel(READ_CHANNEL);
  const paths: string[] = [];
  channel.onmessage = (event: MessageEvent<string[]>) => paths.push(...event.data);
  return {
    has: (name) => paths.some((p) => p.endsWith(name)),
    close: () => channel.close(),
  };
}

/** Where a test ends the lagging watch worker's lag: every event passed on from then on. */
export const CATCH_UP_CHANNEL = "lagging-watch-catch-up";

/**
 * The real watch worker with the runtime's watcher behind every folder named `behind`
 * (lagging_watch_worker.ts), until {@linkcode catchUp}.
 */
export function laggingWatch(behind: string): URL {
  const url = new URL("./lagging_watch_worker.ts", import.meta.url);
  url.searchParams.set("behind", behind);
  return url;
}

/** Ends the lag of every lagging watch worker. */
export function catchUp(): void {
  const channel = new BroadcastChannel(CATCH_UP_CHANNEL);
  channel.postMessage("caught up");
  channel.close();
}
