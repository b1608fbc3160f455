/**
 * The answer nobody asked for (issue 49): right after a root becomes ready, its index
 * answers one question in the background, as most calls ask it: the newest 100 of the week
 * up to its newest file (the fill's one match), so that the question has matches to read.
 * The first answer from memory after a fill costs about twice a later one: the code that
 * answers from held listings has not run yet (the fill read the disk), and every folder's
 * subtree times are bounded on first use (subtree_times.ts). A later session's first call
 * is often that first answer. Not counted as an answer; a call that comes meanwhile waits
 * for it at most {@linkcode WARM_UP_MS}.
 *
 * @module
 */
import type { SearchRequest } from "../query/mod.ts";

/** The longest the answer nobody asked for may take (then it stops, its work half done). */
export const WARM_UP_MS = 250;

const WEEK_MS = 7 * 24 * 3600_000;

/** The question, from the root's fill request (`fill`) and its newest file's time. */
export function warmUpRequest(fill: SearchRequest, newest: number): SearchRequest {
  return {
    ...fill,
    filter: { ...fill.filter, from: newest - WEEK_MS, to: newest + 1, includeUnknownTime: false },
    order: "time_desc",
    limit: 100,
    limits: { ...fill.limits, scanTimeoutMs: WARM_UP_MS },
  };
}
