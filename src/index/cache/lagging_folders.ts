/**
 * The folders of a root made or moved in that the runtime's watcher may not reach yet
 * (contract §18; watch_lag.ts says why and how the watch worker learns when it does): a
 * scan reads them from disk, as it reads the folders the watch leaves out, and once the
 * watcher has caught up with them the index forgets them once more, since what it read
 * before may predate their watch.
 *
 * @module
 */

/** Folders behind the runtime's watcher, each with its wave. */
export class LaggingFolders {
  readonly #wave = new Map<string, number>();

  /**
   * `folders` (absolute paths) are behind the watcher, in wave `wave` (`Infinity`: until
   * released).
   */
  add(folders: readonly string[], wave: number): void {
    for (const folder of folders) {
      this.#wave.set(folder, Math.max(wave, this.#wave.get(folder) ?? wave));
    }
  }

  /** The watcher caught up with wave `wave` and the earlier ones: their folders, let go. */
  caughtUp(wave: number): string[] {
    const done: string[] = [];
    for (const [folder, w] of this.#wave) {
      if (w > wave) continue;
      done.push(folder);
      this.#wave.delete(folder);
    }
    return done;
  }

  /** `folders` are no longer behind (the watch holds them again): those that were. */
  release(folders: readonly string[]): string[] {
    return folders.filter((folder) => this.#wave.delete(folder));
  }

  /** The folders still behind. */
  folders(): IterableIterator<string> {
    return this.#wave.keys();
  }

  /** Forgets them all (a new watch starts its waves again). */
  clear(): void {
    this.#wave.clear();
  }
}
