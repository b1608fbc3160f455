/**
 * The answers nobody asked for (issue 49): right after a root becomes ready, its index
 * answers {@linkcode WARM_UPS} questions in the background, as most calls ask them: the newest
 * 100 of the week up to its newest file (the fill's one match, so that there are matches to
 * read), and of the weeks before it (V8 makes the code fast over a few runs).
 * The first answer from memory after a fill costs about twice a later one: the code that
 * answers from held listings has not run yet (the fill read the disk), and every folder's
 * subtree times are bounded on first use (subtree_times.ts). A later session's first call
 * is often that first answer. Not counted as an answer; each takes its turn at the index, so
 * a call that comes meanwhile waits for one of them at most, {@linkcode WARM_UP_MS}.
 *
 * @module
 */
import type { SearchRequest } from "../query/mod.ts";
import type { Turns } from "./scan_turns.ts";

/** The longest each answer nobody asked for may take (then it stops, its work half done). */
export const WARM_UP_MS = 250;

const WEEK_MS = 7 * 24 * 3600_000;

/** How many questions nobody asked. */
export const WARM_UPS = 3;

/**
 * Asks the questions of `ask`, from the root's fill request (`fill`) and its newest file's
 * time, each in a turn of its own at the index while the root is `ready`; none once a call
 * has the index.
 */
export async function warmUp(
  turns: Turns,
  ready: () => boolean,
  ask: (request: SearchRequest, leave: () => void) => Promise<unknown>,
  fill: SearchRequest,
  newest: number,
): Promise<void> {
  for (let week = 0; week < WARM_UPS; week++) {
    const leave = await turns.take(0);
    if (!leave) return;
    if (!ready()) return leave();
    await ask(warmUpRequest(fill, newest - week * WEEK_MS), leave).catch(() => {});
  }
}

/** One question: the newest 100 of the week up to `to`. */
export function warmUpRequest(fill: SearchRequest, to: number): SearchRequest {
  return {
    ...fill,
    filter: { ...fill.filter, from: to - WEEK_MS, to: to + 1, includeUnknownTime: false },
    order: "time_desc",
    limit: 100,
    limits: { ...fill.limits, scanTimeoutMs: WARM_UP_MS },
  };
}
