/**
 * A root's fill helper (contract §18, docs/index.md "The fill on two cores"): while the
 * root's index is filled, it walks the same tree in the same order as the fill, stats its
 * share of the entries, and writes what it read (listings and stats) into the feed the
 * index worker reads from (fed_fs.ts), so that the fill uses the second core the walks
 * use. Its scan is an ordinary share of the fill's scan on the real file system; it waits
 * for the index worker's go, gives way to calls like the fill, and stops when told.
 * Permissions: reading the roots only.
 *
 * Acts when loaded: only ever loaded as a worker.
 *
 * @module
 */
import { denoFs, type FsPort, systemClock } from "../../ports/mod.ts";
import { strictGuard } from "../../security/mod.ts";
import { scan, ScanCancelled } from "../../walk/mod.ts";
import { answerScan, type ScanTask, type WorkerScope } from "../../workers/mod.ts";
import { FeedWriter } from "./feed_ring.ts";
import { RecordWriter } from "./feed_records.ts";
import type { FeedCommand } from "./fill_messages.ts";

const scope = self as unknown as Omit<WorkerScope, "onmessage"> & {
  onmessage: ((event: MessageEvent<FeedCommand | ScanTask>) => void) | null;
};

let ring: FeedWriter | null = null;
let records: RecordWriter | null = null;

/** The disk, with every listing and stat read also written into the feed. */
const feeding: FsPort = {
  ...denoFs,
  readDir(path) {
    const entries = [...denoFs.readDir(path)];
    records?.list(path, entries);
    return entries;
  },
  lstat(path) {
    const info = denoFs.lstat(path);
    records?.stat(path, info);
    return info;
  },
};

const tools = { fs: feeding, clock: systemClock, guard: strictGuard };

scope.onmessage = (event) => {
  const message = event.data;
  if ("ring" in message) {
    ring = new FeedWriter(message.ring);
    records = new RecordWriter(ring);
    return;
  }
  void answerScan(
    scope,
    tools,
    message,
    undefined,
    async (request, plan, onProgress, checkpoint) => {
      const stopped = () => ring === null || ring.stopped || checkpoint();
      if (ring === null || !ring.waitForGo(checkpoint)) throw new ScanCancelled();
      try {
        return await scan(request, tools, plan, onProgress, stopped);
      } finally {
        records?.flush();
      }
    },
  );
};
