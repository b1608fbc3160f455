/**
 * A watch worker for tests that reports no changes at all (as on a file system that
 * gives no events), and fails in the way its URL says (`?mode=...&at=N`):
 * `fail` (the watch cannot be set up, as at the system's watch limit), `error` (the
 * watcher breaks when the N-th ping arrives), `rescan` (a queue overflow is reported when
 * the N-th ping arrives). Test-only.
 *
 * @module
 */
import type { WatchCommand, WatchReport } from "../../src/index/index_protocol.ts";

const params = new URL(import.meta.url).searchParams;
const mode = params.get("mode");
const at = Number(params.get("at") ?? "1");
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WatchCommand>) => void) | null;
  postMessage(message: WatchReport): void;
};
let pings = 0;

scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === "watch") {
    if (mode === "fail") {
      scope.postMessage({
        type: "failed",
        reason:
          "the system's limit on file watches is reached (on Linux, raise fs.inotify.max_user_watches)",
      });
    } else {
      scope.postMessage({ type: "ready" });
    }
    return;
  }
  if (++pings === at) {
    if (mode === "error") scope.postMessage({ type: "error", reason: "simulated" });
    if (mode === "rescan") scope.postMessage({ type: "changes", changes: [], rescan: true });
  }
  scope.postMessage({ type: "pong", id: command.id });
};
