/**
 * Waiting for a condition, bounded: for a watch to be set up, or a change to reach the
 * index. Never a sleep for timing: it returns as soon as the condition holds. The bound is
 * loose (a minute) because it only tells a hang from slow work: on a loaded 2-core
 * machine, 200 tries of 25 ms (about 5 s) ran out once in 26 runs while an index was
 * still filling (tests/index/memory_budget_test.ts).
 *
 * @module
 */

/** How long {@linkcode until} waits before it gives up, in ms. */
const WITHIN_MS = 60_000;

/** Waits until `check` holds, polling every 25 ms; throws after a minute. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
): Promise<void> {
  const end = performance.now() + WITHIN_MS;
  while (performance.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}
