/**
 * What tells the watch worker that the runtime dropped a folder's watch (contract §18;
 * docs/index.md, "A folder the runtime stops watching"): an event that removes a second path
 * of the folder. Deno 2.9's watcher (`notify` 8.2.0, inotify) keeps a path for each kernel
 * watch it walked to, and an event that removes or moves a path it keeps removes that path's
 * watch, even while another path names the same folder. Two ways give a folder a second path:
 *
 * - **A link inside the root to a folder inside it**: the runtime follows links as it adds its
 *   watches, so the link's path names the folder too, and the paths below it the folders below
 *   (those last walked through the link). Removing or moving the link, or a folder above it,
 *   removes their watches. Kept from the plan (which reads the whole root before the watch) and
 *   from each folder moved in (which the runtime walks); a link made by itself is not walked.
 * - **A folder moved unseen** (into a folder the runtime had not watched yet, found there by the
 *   walk that watches its new place before the event of its move was read: journal/batch.ts
 *   `pairByInode`): the old path of each folder below it still names that folder (the move's
 *   event removes the moved folder's own old path, and so its watch: held again). Only an event
 *   naming that very path removes it (a folder made there later takes the path over).
 *
 * Each such event gives the folders that path named, to be held again (held_watches.ts).
 *
 * @module
 */
import { folderIdentity } from "./watch_messages.ts";
import { listing, type WatchAlias } from "./watch_plan.ts";

/** The most second paths kept, links and old paths together (those found later are not). */
export const MOST_ALIASES = 20_000;

/** The second paths of one root's watch. */
export class DroppedWatches {
  /** Links: the link's path, and the folder it leads to. */
  readonly #links = new Map<string, string>();
  /** Each folder above a kept link (up to the root), with how many links are below it. */
  readonly #above = new Map<string, number>();
  /** Old paths of folders moved unseen: each, and where its folder is now. */
  readonly #old = new Map<string, string>();
  readonly #root: string;
  readonly #sep: string;

  /** `root`: the root's real path; `sep`: the path separator. */
  constructor(root: string, sep: string) {
    this.#root = root;
    this.#sep = sep;
  }

  /** Keeps `links` (those below the root). */
  links(links: readonly WatchAlias[]): void {
    for (const { path, target } of links) {
      if (this.#full || this.#links.has(path) || !path.startsWith(this.#root + this.#sep)) continue;
      this.#links.set(path, target);
      this.#count(path, 1);
    }
  }

  /**
   * The folder now at `to` was moved unseen from `from`: the old path of each folder below it
   * is kept (read now, not through links).
   */
  moved(from: string, to: string): void {
    const stack = [to];
    while (stack.length > 0 && !this.#full) {
      const dir = stack.pop()!;
      for (const entry of listing(dir)) {
        if (!entry.isDirectory || this.#full) continue;
        const path = dir + this.#sep + entry.name;
        stack.push(path);
        this.#old.set(from + path.slice(to.length), path);
      }
    }
  }

  /**
   * What an event tells (one of the runtime's, as `Deno.watchFs` gives it): a path removed or
   * moved away gives the folders to hold again ({@linkcode DroppedWatches.gone}); a folder made
   * or moved in at a second path takes it over (a file does not). A rename that names one path
   * is either: whether anything is there now tells which.
   */
  told(event: { kind: string; paths: readonly string[] }): string[] {
    const [first, to] = event.paths;
    if (first === undefined || !["remove", "rename", "create"].includes(event.kind)) return [];
    // Most events name no path kept here: told nothing, and nothing looked at on disk.
    if (!this.#keeps(first) && (to === undefined || !this.#old.has(to))) return [];
    const away = event.kind === "remove" || to !== undefined ||
      (event.kind === "rename" && !isThere(first));
    const now = to ?? (away ? undefined : first);
    if (now !== undefined && folderIdentity(now) !== null) this.made(now);
    return away ? this.gone(first) : [];
  }

  /** Something was made or moved in at `path`: an old path there names it now, not the folder. */
  made(path: string): void {
    this.#old.delete(path);
  }

  /**
   * An event removed or moved `path`: the folders it named (the paths forgotten): a kept old
   * path, a link, or the links below a folder. One lookup each, unless links lie below `path`.
   */
  gone(path: string): string[] {
    const old = this.#old.get(path);
    if (old !== undefined) this.#old.delete(path);
    const prefix = path + this.#sep;
    const links = this.#links.has(path)
      ? [path]
      : this.#above.has(path)
      ? [...this.#links.keys()].filter((link) => link.startsWith(prefix))
      : [];
    const targets = links.map((link) => this.#links.get(link)!);
    for (const link of links) {
      this.#links.delete(link);
      this.#count(link, -1);
    }
    return old === undefined ? targets : [old, ...targets];
  }

  /** Whether `path` is a kept old path, a kept link, or a folder above one. */
  #keeps(path: string): boolean {
    return this.#old.has(path) || this.#links.has(path) || this.#above.has(path);
  }

  /** How many second paths are kept. */
  get size(): number {
    return this.#links.size + this.#old.size;
  }

  get #full(): boolean {
    return this.size >= MOST_ALIASES;
  }

  /** Counts link `path` in (`by` 1) or out (-1) of each folder above it, up to the root. */
  #count(path: string, by: number): void {
    for (let at = path.lastIndexOf(this.#sep); at > this.#root.length;) {
      const dir = path.slice(0, at);
      const n = (this.#above.get(dir) ?? 0) + by;
      if (n > 0) this.#above.set(dir, n);
      else this.#above.delete(dir);
      at = path.lastIndexOf(this.#sep, at - 1);
    }
  }
}

/** Whether anything is at `path` now (a file too). */
function isThere(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
