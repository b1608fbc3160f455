/**
 * The answers nobody asked for (issue 49): right after a root becomes ready, its index
 * answers {@linkcode WARM_UPS} questions in the background, as most calls ask them: the newest
 * 100 of the week up to its newest file (the fill's one match, so that there are matches to
 * read), and of the weeks before it (V8 makes the code fast over a few runs).
 * The first answer from memory after a fill costs about twice a later one: the code that
 * answers from held listings has not run yet (the fill read the disk), and every folder's
 * subtree times are bounded on first use (subtree_times.ts). A later session's first call
 * is often that first answer.
 *
 * Not counted as answers, and never in a call's way: each takes its own turn at the index
 * only while no call runs, and stops at its next entry as soon as one does (the calls'
 * count, `ScanTask.stopWhile`); the rest are then dropped. Each stops after
 * {@linkcode WARM_UP_MS} in any case.
 *
 * @module
 */
import type { SearchRequest } from "../query/mod.ts";
import { WHOLE } from "../walk/mod.ts";
import type { TaskOptions } from "../workers/mod.ts";
import type { Turns } from "./scan_turns.ts";

/** The longest each answer nobody asked for may take (then it stops, its work half done). */
export const WARM_UP_MS = 250;

const WEEK_MS = 7 * 24 * 3600_000;

/** How many questions nobody asked. */
export const WARM_UPS = 3;

/** What the answers nobody asked for look at before each one. */
export interface WarmUpGate {
  turns: Turns;
  /** Whether the root is still `ready`. */
  ready(): boolean;
  /** The calls running now (call_gate.ts): above 0, no answer nobody asked for starts or goes on. */
  running: Int32Array;
}

/**
 * Asks the questions, from the root's fill request (`fill`) and its newest file's time,
 * each in a turn of its own at the index while the root is `ready` and no call runs; `ask`
 * runs one on the index (stopped by `gate.running`) and rejects if it was stopped. Returns
 * how many were answered.
 */
export async function warmUp(
  gate: WarmUpGate,
  ask: (request: SearchRequest, leave: () => void) => Promise<unknown>,
  fill: SearchRequest,
  newest: number,
): Promise<number> {
  const quiet = () => Atomics.load(gate.running, 0) === 0;
  let answered = 0;
  for (let week = 0; week < WARM_UPS && quiet(); week++) {
    const leave = await gate.turns.take(0);
    if (!leave) return answered;
    if (!gate.ready() || !quiet()) {
      leave();
      return answered;
    }
    try {
      await ask(warmUpRequest(fill, newest - week * WEEK_MS), leave);
      answered++;
    } catch {
      return answered; // stopped by a call (or the index went): the rest are dropped
    }
  }
  return answered;
}

/** How each runs on the index: kept when stopped, and stopped once `running` is above 0. */
export function warmUpTask(
  running: Int32Array,
): Omit<TaskOptions, "graceMs" | "settle" | "onReport"> {
  const plan = { share: WHOLE, keepAll: 0 };
  return { plan, signal: new AbortController().signal, keepOnCancel: true, stopWhile: running };
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
