/**
 * What a root's index worker does (contract §18), apart from where it reads: it answers
 * the root's scans through its {@linkcode TreeCache}, which keeps what the walks read once
 * the watcher runs and forgets what changes name, each one checked on disk before it is given
 * (checked_scan.ts); and keeps the index within its memory budget, a
 * share of the worker's own heap, so that the worker never runs out of heap (which would
 * take the whole process down).
 *
 * @module
 */
import { type Clock, type FsPort, systemClock } from "../../ports/mod.ts";
import { matchersFor, type ScanTools } from "../../walk/mod.ts";
import { answerScan, type ScanTask, type WorkerScope } from "../../workers/mod.ts";
import { strictGuard } from "../../security/mod.ts";
import { checkedScan } from "./checked_scan.ts";
import {
  BackgroundCheck,
  CHECK_CORE_SHARE,
  FolderSweep,
  LaggingFolders,
  QuietTurn,
  TreeCache,
} from "../cache/mod.ts";
import {
  type CheckedMessage,
  DEFAULT_HEAP_LIMIT,
  type HoldMessage,
  type IndexControl,
  type IndexReport,
  type JournalReply,
} from "./index_messages.ts";
import { FedFs } from "../fill/mod.ts";
import type { UnseenMove } from "../watch/mod.ts";
import { type JournalBounds, RootJournal } from "../journal/mod.ts";

/**
 * The share of the worker's heap limit the index may fill (docs/index.md: the rest is for
 * the scan that runs over it, and V8's room to collect; the journal of changes keeps its
 * columns outside the heap).
 */
export const INDEX_HEAP_SHARE = 0.5;
/**
 * The most bytes the journal of changes may hold (contract §24a), outside the heap: its
 * columns take about 50 bytes a change and 40 a path (docs/benchmarks.md), so the default
 * `CHANGES_MAX_ENTRIES` (1,000,000) fits with room for as many paths.
 */
export const JOURNAL_MAX_BYTES = 160 * 1024 * 1024;
/** Past this share of its heap limit in use, the worker drops its index at once. */
export const HEAP_FULL_SHARE = 0.7;
/**
 * The most entries an answer whose cut left matches uncounted may read (its own and those
 * again, uncut) to count them (contract §26: counted when that costs about what a page
 * costs, docs/index.md).
 */
export const COUNT_BUDGET = 20_000;

/** The worker's scope, as the index worker uses it. */
export type IndexWorkerScope = Omit<WorkerScope, "onmessage" | "postMessage"> & {
  onmessage: ((event: MessageEvent<ScanTask | IndexControl>) => void) | null;
  postMessage(
    message:
      | Parameters<WorkerScope["postMessage"]>[0]
      | JournalReply
      | CheckedMessage
      | HoldMessage,
  ): void;
};

/** Options of {@linkcode answerIndexScans}. */
export interface IndexScansOptions {
  /** Where the index reads what it does not hold, and checks answers: the disk. */
  base: FsPort;
  clock?: Clock;
  /**
   * The most entries read again to count an answer the cut left uncounted.
   *
   * @default {COUNT_BUDGET}
   */
  countBudget?: number;
}

/** Makes this worker a root's index worker, reading misses from `base`. */
export function answerIndexScans(scope: IndexWorkerScope, options: IndexScansOptions): void {
  const { base } = options;
  const clock = options.clock ?? systemClock;
  const countBudget = options.countBudget ?? COUNT_BUDGET;
  // Told by the one that starts it (`record`): `node:v8` would start Deno's Node layer here.
  let heapLimit = DEFAULT_HEAP_LIMIT;
  const budgetBytes = () => Math.floor(heapLimit * INDEX_HEAP_SHARE);
  const heapNearlyFull = () => Deno.memoryUsage().heapUsed > heapLimit * HEAP_FULL_SHARE;
  let cache: TreeCache | null = null;
  let maxEntries = 0;
  let unwatched: readonly string[] = [];
  let running: Int32Array | undefined; // the calls running now, in the server
  const busy = () => running !== undefined && Atomics.load(running, 0) > 0;
  const sweep = new FolderSweep(); // with each answer: folders only
  const upkeep = new QuietTurn(() => cache?.view.keepOrder(), busy); // after changes
  /** In the background, paced: this root's share of one core (background_check.ts). */
  let background: BackgroundCheck | undefined;
  let checkShare = CHECK_CORE_SHARE;
  const fed = new FedFs(base); // what the index reads from disk, fed while a fill runs
  /** Folders made or moved in that the runtime's watcher may not reach yet. */
  const lagging = new LaggingFolders();
  /** Made with the held tree, begun once the root is ready (contract §24). */
  let journal: RootJournal | null = null;
  let bounds: JournalBounds = { maxSteps: Infinity, maxAgeMs: Infinity };
  /** `at`: the journal's position when the answer began (its clock: contract §24). */
  const report = (index: TreeCache | null, at = journal?.position ?? 0): IndexReport => ({
    entries: !index ? 0 : index.overflowed ? index.overflowedAt : index.entries,
    budgetBytes: budgetBytes(),
    memoryBytes: Deno.memoryUsage().heapUsed + (index?.offHeapBytes ?? 0),
    watches: Math.max(0, (index?.folders ?? 0) - unwatched.length),
    overflowed: index?.overflowed ?? null,
    special: index?.special ?? false,
    opened: index?.opened ?? false,
    mounted: index?.mounted ?? false,
    journal: journal?.state(at) ?? { position: at, start: null, steps: 0, bytes: 0 },
  });
  scope.onmessage = (event) => {
    const message = event.data;
    if ("request" in message) {
      const rootReal = message.request.root.realPath;
      cache ??= new TreeCache({
        base: fed,
        disk: base,
        rootReal,
        maxEntries,
        maxBytes: budgetBytes(),
        heapNearlyFull,
        unwatched,
      });
      if (maxEntries > 0) cache.record(true);
      const index = cache;
      journal ??= new RootJournal(
        index,
        base,
        { ...bounds, maxBytes: JOURNAL_MAX_BYTES },
        () => clock.now(),
        () => lagging.folders(),
      );
      // Said when each round ends, so that fs.list_roots knows it without an answer.
      background ??= new BackgroundCheck(index, {
        share: checkShare,
        onRound: (wholeSince, ended) => scope.postMessage({ type: "checked", wholeSince, ended }),
      });
      const tools: ScanTools = { fs: index, clock, guard: strictGuard };
      const at = journal.clock(); // what the scan reads is at least this new
      void answerScan(
        scope,
        tools,
        message,
        () => report(index, at),
        (request, plan, onProgress, checkpoint) => {
          sweep.withAnswer(index, busy);
          const budget = { checkpoint, countBudget };
          return checkedScan(index, base, tools, request, plan, onProgress, budget, lagging);
        },
      );
    } else if (message.type === "record") {
      maxEntries = message.maxEntries;
      heapLimit = message.heapLimit ?? heapLimit;
      unwatched = message.unwatched;
      lagging.clear(); // a new watch: its waves start again
      bounds = message.journal ?? bounds;
      checkShare = message.checkShare ?? checkShare;
      running = message.running ?? running;
    } else if (message.type === "feed") {
      if (message.ring) fed.feed(message.ring, message.root);
      else fed.end();
    } else if (message.type === "journal") {
      journal?.begin(Math.min(message.at, clock.now()));
    } else if (message.type === "since") {
      const ask = () => {
        const answer = journal?.ask(message.query) ?? { fresh: "its index is not ready" };
        scope.postMessage({ type: "since", id: message.id, answer, report: report(cache) });
      };
      // The first question with a glob or ignore files loads their matchers (a journal's
      // answer says as of when it is, so one given a moment later is as exact).
      const loading = matchersFor(message.query.filter);
      if (loading) void loading.then(ask);
      else ask();
    } else if (message.rescan) {
      fed.changed("all");
      cache?.clear();
      journal?.clear();
      upkeep.poke();
    } else {
      upkeep.poke();
      fed.changed(message.changes);
      let unseen: UnseenMove[] = [];
      if (journal) unseen = journal.apply(message.changes);
      else cache?.apply(message.changes);
      if (unseen.length > 0) {
        // Read from disk until the watch holds them again (watch/held_watches.ts).
        lagging.add(unseen.map((move) => move.to), Infinity);
        scope.postMessage({ type: "hold", moves: unseen });
      }
      const { behind, caughtUp, held } = message;
      if (behind) lagging.add(behind.folders, behind.wave);
      // Read from disk while behind; forgotten once more now: that read may predate the watch.
      const caught = caughtUp ? lagging.caughtUp(caughtUp) : [];
      if (held) {
        lagging.release(held);
        caught.push(...held); // read once more: what changed before the hold raised no event
      }
      if (journal) journal.caughtUp(caught);
      else for (const folder of caught) cache?.forgetFolder(folder);
    }
  };
}
