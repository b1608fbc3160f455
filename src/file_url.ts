/**
 * A `file:` URL's path on this system, as `node:url`'s `fileURLToPath` gives it (and Deno
 * std's `fromFileUrl`): written here so that a service's isolate loads no `node:` module
 * (the first one starts Deno's Node layer in it, docs/benchmarks.md). main.ts turns its own
 * URL and its workers' into the paths its permissions name.
 *
 * @module
 */

/** The path of file URL `url` (`file:///a/b%20c` → `/a/b c`; on Windows `C:\a\b c`). */
export function fromFileUrl(url: string | URL, windows = Deno.build.os === "windows"): string {
  const parsed = new URL(url);
  if (parsed.protocol !== "file:") throw new TypeError("must be a file URL");
  if (!windows) {
    if (parsed.hostname !== "" && parsed.hostname !== "localhost") {
      throw new TypeError('a file URL\'s host must be "localhost" or empty');
    }
    if (/%2f/i.test(parsed.pathname)) throw new TypeError("a file URL's path may not hold /");
    return decodeURIComponent(parsed.pathname);
  }
  if (/%2f|%5c/i.test(parsed.pathname)) {
    throw new TypeError("a file URL's path may not hold / or \\");
  }
  const path = decodeURIComponent(parsed.pathname.replaceAll("/", "\\"))
    .replace(/^\\([A-Za-z]:)(\\|$)/, "$1\\");
  return parsed.hostname !== "" ? `\\\\${parsed.hostname}${path}` : path;
}
