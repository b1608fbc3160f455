/**
 * A root's index worker (contract §18): it answers the root's scans through its
 * {@linkcode TreeCache}, which keeps what the walks read once the watcher runs and forgets
 * what changes name. Permissions: reading the roots only (contract §13, layer 2).
 *
 * Acts when loaded: only ever loaded as a worker.
 *
 * @module
 */
import { systemClock } from "../ports/clock.ts";
import { denoFs } from "../ports/fs.ts";
import type { ScanTask } from "../search/worker_protocol.ts";
import { answerScan, type WorkerScope } from "../search/worker_protocol.ts";
import { strictGuard } from "../security/guard.ts";
import type { IndexControl } from "./index_protocol.ts";
import { TreeCache } from "./tree_cache.ts";

const scope = self as unknown as Omit<WorkerScope, "onmessage"> & {
  onmessage: ((event: MessageEvent<ScanTask | IndexControl>) => void) | null;
};

let cache: TreeCache | null = null;
let maxEntries = 0;

scope.onmessage = (event) => {
  const message = event.data;
  if ("request" in message) {
    cache ??= new TreeCache({
      base: denoFs,
      rootReal: message.request.root.realPath,
      maxEntries,
    });
    if (maxEntries > 0) cache.record(true);
    const tools = { fs: cache, clock: systemClock, guard: strictGuard };
    const index = cache;
    void answerScan(scope, tools, message, () => ({
      entries: index.entries,
      overflowed: index.overflowed,
    }));
  } else if (message.type === "record") {
    maxEntries = message.maxEntries;
  } else if (message.rescan) {
    cache?.clear();
  } else {
    cache?.apply(message.changes);
  }
};
