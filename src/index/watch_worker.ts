/**
 * A root's watch worker (contract §18): it sets up `Deno.watchFs` on the root (which
 * walks the tree to add one watch per folder, so it runs here, never where calls are
 * answered) and sends the changes on in batches. Permissions: reading the roots only.
 *
 * Acts when loaded: only ever loaded as a worker.
 *
 * @module
 */
import {
  type Change,
  type WatchCommand,
  watchFailure,
  type WatchReport,
} from "./index_protocol.ts";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WatchCommand>) => void) | null;
  postMessage(message: WatchReport): void;
};

let pending: Change[] = [];
let rescan = false;
/** When the last event was read: a ping is answered once events have settled. */
let lastEvent = 0;

/** Events keep coming for a burst: a ping waits for a short quiet spell, within limits. */
const QUIET_MS = 10;
const MAX_WAIT_MS = 100;

function send(): void {
  if (pending.length === 0 && !rescan) return;
  scope.postMessage({ type: "changes", changes: pending, rescan });
  pending = [];
  rescan = false;
}

async function watch(path: string): Promise<void> {
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(path, { recursive: true });
  } catch (err) {
    scope.postMessage({ type: "failed", reason: watchFailure(err) });
    return;
  }
  scope.postMessage({ type: "ready" });
  try {
    for await (const event of watcher) {
      lastEvent = performance.now();
      if (event.flag === "rescan") rescan = true;
      pending.push({ kind: event.kind, paths: event.paths });
      if (pending.length === 1) setTimeout(send, 0); // one batch per turn of the loop
    }
  } catch (err) {
    send();
    scope.postMessage({ type: "error", reason: watchFailure(err) });
  }
}

scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === "watch") {
    void watch(command.path);
  } else {
    // Let the events the runtime holds reach the loop (a burst takes many turns of it),
    // then send them before the answer.
    const started = performance.now();
    const settle = () => {
      const now = performance.now();
      if (now - lastEvent < QUIET_MS && now - started < MAX_WAIT_MS) {
        setTimeout(settle, 2);
        return;
      }
      send();
      scope.postMessage({ type: "pong", id: command.id });
    };
    setTimeout(settle, 0);
  }
};
