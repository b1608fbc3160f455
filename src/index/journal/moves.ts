/**
 * The moves a journal saw (contract §24), to place events the runtime gives under a
 * folder's old name: a folder moved into one the runtime did not watch yet keeps
 * reporting what happens in it under the name it had (the runtime learns new names only
 * from the moves it sees).
 *
 * @module
 */

/** How many moves are kept. */
export const MOVES_KEPT = 4096;

/** The last {@linkcode MOVES_KEPT} moves seen, root-relative: from, to. */
export class Moves {
  readonly #moves = new Map<string, string>();

  /** Notes that `from` moved to `to`. */
  moved(from: string, to: string): void {
    this.#moves.delete(from);
    this.#moves.set(from, to);
    if (this.#moves.size > MOVES_KEPT) this.#moves.delete(this.#moves.keys().next().value!);
  }

  /** Something is at `path` again: events under it are its own, no longer a move's. */
  reused(path: string): void {
    this.#moves.delete(path);
  }

  /**
   * Where `path` is now, by the moves noted (of it or of a folder above it, and of where
   * they led), or `undefined` when none was.
   */
  movedTo(path: string): string | undefined {
    let at = path;
    let found = false;
    for (let hops = 0; hops < 16; hops++) {
      let prefix = at;
      while (prefix !== "" && !this.#moves.has(prefix)) {
        const cut = prefix.lastIndexOf("/");
        prefix = cut < 0 ? "" : prefix.slice(0, cut);
      }
      if (prefix === "") break;
      at = this.#moves.get(prefix)! + at.slice(prefix.length);
      found = true;
    }
    return found ? at : undefined;
  }
}
