/**
 * The URL of the test watch worker (fake_watch_worker.ts) in a given mode: `fail`, `error`
 * or `rescan` at the `at`-th ping (or `after` ms after it is answered), or `hold`.
 *
 * @module
 */

/** The fake watch worker's module, told what to do through its URL. */
export function fakeWatch(mode: string, at = 1, after?: number): URL {
  const url = new URL("./fake_watch_worker.ts", import.meta.url);
  url.searchParams.set("mode", mode);
  url.searchParams.set("at", String(at));
  if (after !== undefined) url.searchParams.set("after", String(after));
  return url;
}
