/**
 * Waiting for something with a time limit and a cancel signal, leaving no timer or
 * listener behind.
 *
 * @module
 */

/**
 * Whether `promise` settles within `ms` (true) or not (false); rejects with the
 * signal's reason if `signal` aborts first.
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
