/**
 * Who answered each call on a root (contract §18, "Who answered"): the index, or a walk and
 * why. Counted per root for `fs.list_roots` (tests read the counts: an indexed answer that
 * fails silently becoming a walk shows there), and told to the caller for its log line.
 *
 * @module
 */
import type { IndexStatus, RootState } from "./live_index_options.ts";

/** What a root says of the calls made on it. */
type Counted = Pick<IndexStatus, "answers" | "lastWalk">;

/** The calls of every root, by who answered them. */
export class Answers {
  readonly #roots = new Map<string, Counted>();

  /** The roots, by path. */
  constructor(roots: readonly string[]) {
    for (const root of roots) this.#roots.set(root, { answers: { index: 0, walk: 0 } });
  }

  /** A call on `root` was answered by its index; says so to `told`. */
  index(root: string, told?: (by: string) => void): void {
    this.#roots.get(root)!.answers.index++;
    told?.("the index");
  }

  /** A call on `root` was answered by a walk, for `why`; says so to `told`. */
  walk(root: string, why: string, told?: (by: string) => void): void {
    const counted = this.#roots.get(root)!;
    counted.answers.walk++;
    counted.lastWalk = why;
    told?.(`a walk (${why})`);
  }

  /** What `root` says of its calls (a copy). */
  of(root: string): Counted {
    const { answers, lastWalk } = this.#roots.get(root)!;
    return { answers: { ...answers }, ...(lastWalk === undefined ? {} : { lastWalk }) };
  }
}

/** Why a call on a root in `status` walks rather than asking its index. */
export function whyWalking(status: RootState): string {
  if (status.state === "starting") {
    return status.reason ? `its watch is starting: ${status.reason}` : "its watch is starting";
  }
  if (status.state === "building") {
    const so = ` (${status.entries} entries read so far)`;
    return status.reason
      ? `its index is being built: ${status.reason}${so}`
      : `its index is being built${so}`;
  }
  return status.reason ?? "its index is off";
}
