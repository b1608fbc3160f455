/**
 * The URL of the test watch worker (fake_watch_worker.ts) in a given mode: `fail`, `error`
 * or `rescan` at the `at`-th ping (or `after` ms after it is answered), or `hold`; and
 * {@linkcode watchRead}, to wait until a watch in `hold` mode has read a change.
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
