/**
 * A call on a root whose index is being built (contract §28a, "the first minute"): it waits
 * for the build when the build will end sooner than a walk of the root would take, and is
 * then answered from the index; otherwise it walks, as before. A call never waits for more
 * of the build than a walk of its own would cost: the wait is bounded by that walk's time,
 * and a waiting call does not make the fill give way (only running calls do).
 *
 * @module
 */
import type { WalkCost } from "../workers/mod.ts";
import type { RootIndex } from "./root_record.ts";

/** The least share of the root a build must have read before its pace is trusted. */
const LEAST_READ = 0.05;
/** How often a waiting call looks at the build (ms). */
const LOOK_MS = 50;

/**
 * How long the build of `root` will still take at its pace so far (ms, `now` on the
 * keeper's clock), for a root whose walk costs `cost`; `null` when it cannot be told (not
 * building, or too little read yet to trust its pace).
 */
export function buildLeftMs(root: RootIndex, cost: WalkCost, now: number): number | null {
  const read = root.status.entries;
  if (root.status.state !== "building" || root.buildStartedAt === null) return null;
  if (read < cost.entries * LEAST_READ || read <= 0) return null;
  const pace = read / Math.max(1, now - root.buildStartedAt);
  return Math.max(0, cost.entries - read) / pace;
}

/**
 * Waits while `root` is building, at most `ms` (real time); whether it was ready then.
 *
 * @throws the signal's reason when it is aborted meanwhile.
 */
export async function awaitBuild(
  root: RootIndex,
  ms: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const end = performance.now() + ms;
  while (root.status.state === "building" && performance.now() < end) {
    if (signal?.aborted) throw signal.reason;
    await new Promise((resolve) => setTimeout(resolve, LOOK_MS));
  }
  return root.status.state === "ready";
}
