/**
 * Waiting for a condition, bounded: for a watch to be set up, or a change to reach the
 * index. Never a sleep for timing: it returns as soon as the condition holds.
 *
 * @module
 */

/** Waits until `check` holds, polling every 25 ms; throws after 200 tries. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}
