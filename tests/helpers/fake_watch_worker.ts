/**
 * A watch worker for tests that reports no changes at all (as on a file system that
 * gives no events), and fails in the way its URL says (`?mode=...&at=N`):
 * `fail` (the watch cannot be set up, as at the system's watch limit), `error` (the
 * watcher breaks when the N-th ping arrives, or `after` ms after it is answered: in the
 * middle of the call), `rescan` (a queue overflow is reported when
 * the N-th ping arrives); or `hold`: a real watch whose changes are passed on only when a
 * ping asks for them, so an answer sees a change only if it flushed the watch first; the
 * paths of each event it reads are told on the `BroadcastChannel` {@linkcode READ_CHANNEL}, so
 * a test can wait until the watch has read a change (when the runtime hands an event over
 * is not bounded on a loaded machine). Each watch it sets up is told on
 * {@linkcode SET_UP_CHANNEL}. Test-only.
 *
 * @module
 */
import {
  type Change,
  folderIdentity,
  type WatchCommand,
  type WatchReport,
} from "../../src/index/watch/watch_messages.ts";
import { READ_CHANNEL, SET_UP_CHANNEL } from "./fake_watch.ts";

const params = new URL(import.meta.url).searchParams;
const mode = params.get("mode");
const at = Number(params.get("at") ?? "1");
/** The fault comes this long after the N-th ping is answered (default: before it is). */
const after = params.get("after");
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WatchCommand>) => void) | null;
  postMessage(message: WatchReport): void;
};
let pings = 0;
/** The root watched, whose identity ready and passed reports carry as the real worker's do. */
let root = "";
let held: Change[] = [];
let lastEvent = 0;
let setUp: BroadcastChannel | null = null;

async function hold(path: string): Promise<void> {
  const read = new BroadcastChannel(READ_CHANNEL);
  const watcher = Deno.watchFs(path, { recursive: true });
  scope.postMessage({ type: "ready", root: folderIdentity(root) });
  for await (const event of watcher) {
    lastEvent = performance.now();
    held.push({ kind: event.kind, paths: event.paths });
    read.postMessage(event.paths);
  }
}

/** Passes on what is held once events have been quiet for 10 ms (at most 100 ms), then answers. */
function release(id: number, started = performance.now()): void {
  const now = performance.now();
  if (now - lastEvent < 10 && now - started < 100) {
    setTimeout(() => release(id, started), 2);
    return;
  }
  if (held.length > 0) scope.postMessage({ type: "changes", changes: held, rescan: false });
  held = [];
  scope.postMessage({ type: "passed", id, root: folderIdentity(root) });
}

scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === "hold") return; // it loses no watch: nothing to hold
  if (command.type === "watch") {
    root = command.path;
    // Kept open: closed at once, the next channel this worker opened (`hold`'s) failed to post
    // ("expected i32"), the isolate's shared handle of channels let go under it.
    setUp ??= new BroadcastChannel(SET_UP_CHANNEL);
    setUp.postMessage(root);
  }
  if (mode === "hold") {
    if (command.type === "watch") void hold(command.path);
    else setTimeout(() => release(command.id), 0);
    return;
  }
  if (command.type === "watch") {
    if (mode === "fail") {
      scope.postMessage({
        type: "failed",
        reason:
          "the system's limit on file watches is reached (on Linux, raise fs.inotify.max_user_watches)",
      });
    } else {
      scope.postMessage({ type: "ready", root: folderIdentity(root) });
    }
    return;
  }
  const fault = () => {
    if (mode === "error") scope.postMessage({ type: "error", reason: "simulated" });
    if (mode === "rescan") scope.postMessage({ type: "changes", changes: [], rescan: true });
  };
  if (++pings === at && after === null) fault();
  scope.postMessage({ type: "passed", id: command.id, root: folderIdentity(root) });
  if (pings === at && after !== null) setTimeout(fault, Number(after));
};
