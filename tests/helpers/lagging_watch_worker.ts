/**
 * The real watch worker (watch_worker.ts), with the runtime's watcher made to lag behind
 * every folder of the name its URL gives (`?behind=<name>`), as when the runtime has not yet
 * added the watch of a folder made during a long run of events on a busy machine
 * (watch_lag.ts): no event names such a folder or anything below it, nor anything inside
 * the lag probe's anchor (so the probe cannot say the watcher caught up), until a message
 * on the `BroadcastChannel` `CATCH_UP_CHANNEL` ends the run (fake_watch.ts: `catchUp`). Acts
 * when loaded: only ever loaded as a worker. Test-only.
 *
 * @module
 */
import { PROBE_PREFIX } from "../../src/index/watch/watch_lag.ts";
import { CATCH_UP_CHANNEL } from "./fake_watch.ts";

const behind = new URL(import.meta.url).searchParams.get("behind");
const sep = Deno.build.os === "windows" ? "\\" : "/";
let lagging = behind !== null;
if (lagging) {
  const channel = new BroadcastChannel(CATCH_UP_CHANNEL);
  channel.onmessage = () => {
    lagging = false;
    channel.close();
  };
}

/** Whether an event's path lies where the watcher is behind. */
function unseen(path: string): boolean {
  const parts = path.split(sep);
  const anchor = parts.findIndex((part) => part.startsWith(PROBE_PREFIX));
  return parts.includes(behind!) || (anchor >= 0 && anchor < parts.length - 1);
}

const watchFs = Deno.watchFs;

/** The runtime's watcher, less the events of what lies behind while it lags. */
function laggingWatch(...args: Parameters<typeof Deno.watchFs>): Deno.FsWatcher {
  const watcher = watchFs(...args);
  async function* events(): AsyncGenerator<Deno.FsEvent> {
    for await (const event of watcher) {
      const left = lagging ? event.paths.filter((path) => !unseen(path)) : event.paths;
      if (left.length > 0 || event.flag !== undefined) yield { ...event, paths: left };
    }
  }
  return Object.assign(events(), {
    close: () => watcher.close(),
    [Symbol.dispose]: () => watcher.close(),
  }) as unknown as Deno.FsWatcher;
}

if (behind !== null) Object.defineProperty(Deno, "watchFs", { value: laggingWatch });
await import("../../src/index/watch/watch_worker.ts");
