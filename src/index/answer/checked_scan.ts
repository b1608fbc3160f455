/**
 * One scan over a root's index, as its index worker gives it (contract §18, §26): narrowed to
 * what can change its page (focus.ts), its page's folders taken from the time order where it
 * can be (time_order.ts), its drops counted or the scan read again uncut within a budget, and
 * its folders checked on disk before it is given (answer_check.ts); a folder found changed is
 * learned again and the scan made again, within what is left of its time.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import {
  handedOn,
  scan,
  type ScanOutcome,
  type ScanPlan,
  type ScanProgress,
  type ScanTools,
} from "../../walk/mod.ts";
import { type SearchRequest, withTimeSpent } from "../../query/mod.ts";
import { answerFolders, checkFolders, startFolders } from "./answer_check.ts";
import type { LaggingFolders, TreeCache } from "../cache/mod.ts";
import {
  type Dropped,
  focusOf,
  mayDiffer,
  narrowToCursor,
  narrowToWorst,
  pageOf,
  uncounted,
  withCount,
  withDrops,
} from "../focus/mod.ts";

/** Answers whose folders keep changing under them are tried this often, then walked. */
const ATTEMPTS = 3;

/** Thrown when an answer's folders changed under each attempt: the server walks instead. */
export class IndexUnsettled extends Error {
  constructor() {
    super("the tree kept changing under the answer");
    this.name = "IndexUnsettled";
  }
}

/**
 * One scan over the index, its folders checked on disk before it is given; a folder found
 * changed is learned again and the scan made again, within what is left of its time.
 */
export async function checkedScan(
  index: TreeCache,
  disk: FsPort,
  tools: ScanTools,
  request: SearchRequest,
  plan: ScanPlan,
  onProgress: (progress: ScanProgress) => void,
  { checkpoint, countBudget }: { checkpoint: () => boolean; countBudget: number },
  lagging: LaggingFolders,
): Promise<ScanOutcome> {
  const started = tools.clock.now();
  let focus = focusOf(request);
  // Narrowed to what can change the page (focus.ts): what that leaves out inside the window
  // is counted from the index where it can be (exact_drops.ts); where it cannot, and reading
  // it again costs at most `countBudget` entries, read again uncut to count (§26), or read
  // uncut at once when the whole read is known to cost no more than that.
  let cut = focus === null || focus.exact !== undefined ||
    index.view.wholeReadAtMost(focus, countBudget) > countBudget;
  for (let attempt = 1;; attempt++) {
    const timed = withTimeSpent(request, tools.clock.now() - started);
    index.focus(focus);
    index.begin(lagging.folders());
    // A whole window counted from the root's time order (time_order.ts): drops only noted.
    const ordered = index.view.windowCountable(focus);
    if (focus?.exact) focus.exact.counted = ordered;
    if (focus) delete focus.only;
    const asked = focus && cut && plan.keepAll === 0 ? pageOf(focus, request) : null;
    const page = asked && index.view.pageFolders(asked);
    if (page) focus!.only = page.only;
    let outcome: ScanOutcome;
    let dropped: Dropped;
    try {
      const planned = cut ? narrowing(index, plan, request, page?.edge) : plan;
      outcome = await scan(timed, tools, planned, onProgress, checkpoint);
    } finally {
      dropped = index.dropped;
      index.focus(null);
    }
    if (focus !== null && mayDiffer(outcome, dropped, timed)) {
      focus = null; // unfocused, it might have been cut elsewhere: made again as a walk would
      attempt--;
      continue;
    }
    // Counted after the scan: what it read from disk meanwhile is in the tree.
    const count = ordered ? index.view.windowCount(focus) : null;
    const known = dropped.exact === dropped.beyond && (count !== null || !ordered);
    if (dropped.beyond > 0 && known && outcome.stopped === null) {
      outcome = count ? withCount(outcome, count) : withDrops(outcome, dropped);
    } else if (dropped.beyond > 0) {
      const { scannedFiles, scannedDirectories } = outcome.walk;
      if (scannedFiles + scannedDirectories + dropped.reread <= countBudget) {
        cut = false;
        attempt--;
        continue;
      }
      outcome = uncounted(outcome);
    }
    outcome = handedOn(outcome); // its page's matches only: checked, and sent on
    const rootReal = request.root.realPath;
    const start = startFolders(request.start.path, index, rootReal);
    const changed = checkFolders(disk, index, rootReal, answerFolders(outcome, start));
    if (changed.length === 0 && !index.unsettled) return outcome;
    if (attempt === ATTEMPTS) throw new IndexUnsettled();
  }
}

/**
 * The plan of a focused scan: its cut narrows to what can still change its page (focus.ts),
 * from the start to the time order's `edge` where it found one (time_order.ts `pageFolders`);
 * not past the page when every match is to be kept (paging asked for them all).
 */
function narrowing(
  index: TreeCache,
  plan: ScanPlan,
  request: SearchRequest,
  edge = NaN,
): ScanPlan {
  const cut = index.cut;
  if (cut === null) return plan;
  narrowToCursor(cut, request);
  if (!Number.isNaN(edge)) narrowToWorst(cut, request.order, { time: edge, path: "" });
  if (plan.keepAll > 0) return plan;
  return { ...plan, onWorst: (worst) => narrowToWorst(cut, request.order, worst) };
}
