/**
 * What stalled watches cost the process, bounded over its life (contract §18). The runtime's
 * watcher opens each path an event names; a FIFO blocks that open until a writer comes,
 * and the thread that opened it, with its inotify instance (`fs.inotify.max_user_instances`
 * is 128 per user, shared with every program of the user), stays blocked for good: no
 * JavaScript can stop it. A watch whose barrier does not pass is set up again in a new
 * worker; the old one is kept for a while, and counted as stuck only if it never passes a
 * barrier late (a slow watcher on a busy machine does, and costs nothing). Past
 * {@linkcode MOST_STUCK} held, a root whose watch stalls again is not watched again.
 *
 * @module
 */

/** The most stalled watches a server holds (stuck, or not yet known not to be). */
export const MOST_STUCK = 8;
/** How long a stalled watch is given to pass a barrier late before it counts as stuck. */
export const STALL_GRACE_MS = 60_000;

/** Why a root is no longer watched once the server holds as many stalled watches as it may. */
export function stuckReason(held: number): string {
  return `the system's watcher stalled ${held} times on files it opens and blocks on (FIFOs); each stall holds one of its threads and an inotify instance for good, so this root is no longer watched`;
}

/** The stalled watches of one server. */
export class Stalls {
  readonly #most: number;
  #pending = 0;
  #stuck = 0;

  constructor(most = MOST_STUCK) {
    this.#most = most;
  }

  /** Stalled watches held now: stuck, or not yet known not to be. */
  get held(): number {
    return this.#pending + this.#stuck;
  }

  /** Those known stuck (their grace ran out). */
  get stuck(): number {
    return this.#stuck;
  }

  /** Whether the server holds as many as it may: a root that stalls again is not watched. */
  get exhausted(): boolean {
    return this.held >= this.#most;
  }

  /** A watch that stalled: `late` says whether it passed a barrier within its grace. */
  track(late: Promise<boolean>): void {
    this.#pending++;
    void late.then((passed) => {
      this.#pending--;
      if (!passed) this.#stuck++;
    });
  }
}
