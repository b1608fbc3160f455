/**
 * Taking turns at one root's index: one scan at a time, each waiting for the one before,
 * but never longer than it is willing to, and never past its call's cancellation.
 *
 * @module
 */

/** A queue of turns, first come first served. */
export class Turns {
  #last: Promise<void> = Promise.resolve();

  /**
   * Waits for every earlier turn to end, at most `waitMs`: a function that ends this turn,
   * or `null` when the earlier ones took too long (then this one is given up at once).
   * Rejects with the signal's reason if `signal` aborts first.
   */
  async take(waitMs: number, signal?: AbortSignal): Promise<(() => void) | null> {
    const before = this.#last;
    let end!: () => void;
    const mine = new Promise<void>((resolve) => (end = resolve));
    this.#last = before.then(() => mine);
    try {
      if (await settledWithin(before, waitMs, signal)) return end;
    } catch (err) {
      end();
      throw err;
    }
    end();
    return null;
  }
}

/**
 * Whether `promise` settles within `ms` (true) or not (false); rejects with the
 * signal's reason if `signal` aborts first. Leaves no timer or listener behind.
 */
export function settledWithin(
  promise: Promise<unknown>,
  ms: number,
  signal?: AbortSignal,
): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      settle();
    };
    const onAbort = () => done(() => reject(signal!.reason));
    const timer = setTimeout(() => done(() => resolve(false)), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
    promise.then(() => done(() => resolve(true)), () => done(() => resolve(true)));
  });
}
