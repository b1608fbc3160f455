/**
 * One root's journal as its index worker keeps it (contract §24): made with the index's
 * held tree (it records from the fill on, so that what the tree holds and what the journal
 * took together know the whole tree), begun when the root is ready, cleared when the
 * index forgets everything; each batch of events recorded around the tree's forgetting;
 * a changes call's question answered.
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import { hostRules } from "../../security/mod.ts";
import type { TreeCache } from "../cache/mod.ts";
import { DIR } from "../store/mod.ts";
import type { Change, UnseenMove } from "../watch/mod.ts";
import { batchTouches } from "./batch.ts";
import { type Image, lstatImage } from "./image.ts";
import { Journal, type Touch } from "./journal.ts";
import { askJournal, type JournalAnswer, type JournalQuery } from "./journal_query.ts";
import { Known } from "./known.ts";
import { settleTouches } from "./settle.ts";

/**
 * The most entries the journal keeps of a folder the held tree forgets with no event (its
 * time moved under a scan): past it, the journal starts anew rather than hold a copy of
 * a large part of the tree.
 */
export const REMEMBER_MOST = 20_000;

/** The most folders that appeared kept to be read again before the next question or clock. */
const APPEARED_MOST = 10_000;

/** The journal's bounds (`CHANGES_MAX_ENTRIES`, `CHANGES_MAX_AGE`). */
export interface JournalBounds {
  maxSteps: number;
  maxAgeMs: number;
  /** Its heap bytes at most (a share of the index worker's heap). Default: no bound. */
  maxBytes?: number;
}

/** What a report says of a journal: see `IndexReport.journal`. */
export interface JournalState {
  position: number;
  start: number | null;
  steps: number;
  bytes: number;
}

/** One root's journal, beside its held tree. */
export class RootJournal {
  readonly #cache: TreeCache;
  readonly #disk: FsPort;
  readonly #journal: Journal;
  /** A batch of events is being applied: what it forgets, the batch itself keeps. */
  #applying = false;
  /** Folders that appeared since the last question or clock, read again before the next. */
  readonly #appeared = new Set<string>();
  /** Folders whose listing events changed since the last question or clock: listed again. */
  readonly #listed = new Set<string>();

  /** The folders the runtime's watcher is still behind (lagging_folders.ts), read at each settle. */
  readonly #behind: () => Iterable<string>;

  /** `behind`: the folders made or moved in that the runtime's watcher may not reach yet. */
  constructor(
    cache: TreeCache,
    disk: FsPort,
    bounds: JournalBounds,
    now: () => number,
    behind: () => Iterable<string> = () => [],
  ) {
    this.#cache = cache;
    this.#disk = disk;
    this.#behind = behind;
    const sep = hostRules.sep;
    this.#journal = new Journal({
      ...bounds,
      now,
      held: (path) => {
        const image = cache.view.peek(cache.root + sep + path.replaceAll("/", sep));
        return image !== null && image !== "unknown";
      },
    });
    cache.hooks = {
      forgetting: (abs, below) => this.#forgetting(abs, below),
      unseen: (abs) => this.#unseen(abs),
    };
  }

  /** The position now. */
  get position(): number {
    return this.#journal.position;
  }

  /**
   * The position to give as a clock: what changed with no event before now read first, so
   * that every entry there now is known as of it (a file written in a folder before the
   * runtime watched it, then removed, is removed since this clock).
   */
  clock(): number {
    this.#settle();
    return this.#journal.position;
  }

  /** What a report says of it. */
  state(at = this.position): JournalState {
    const { start, steps, bytes } = this.#journal;
    return { position: at, start: Number.isFinite(start) ? start : null, steps, bytes };
  }

  /** The root became ready at `atMs`: positions from then on are answered exactly. */
  begin(atMs?: number): void {
    this.#journal.begin(atMs);
    // From now on, not during the fill (what it reads is the start): no folder's path is made.
    this.#cache.hooks.learning = (abs, names) => this.#learning(abs, names);
  }

  /** The index forgot everything (events were lost): nothing before now is known. */
  clear(): void {
    this.#journal.clear();
    delete this.#cache.hooks.learning;
  }

  /**
   * Applies a batch of events to the held tree, and keeps what it did. Returns the folders
   * found moved with only their old name given (batch.ts `pairByInode`): the runtime's watch
   * of each may be lost, to be held again (watch/held_watches.ts).
   */
  apply(changes: readonly Change[]): UnseenMove[] {
    const cache = this.#cache;
    const apply = () => {
      this.#applying = true;
      try {
        cache.apply(changes);
      } finally {
        this.#applying = false;
      }
    };
    const appeared = (abs: string) => this.#appear(abs);
    const unseen: UnseenMove[] = [];
    const known = this.#known();
    const touches = batchTouches(
      changes,
      known,
      this.#disk,
      cache.root,
      apply,
      appeared,
      // Where a folder moved unseen may be: those that appeared, and those still behind.
      () => new Set([...this.#appeared, ...this.#behind()]),
      (from, to) => unseen.push({ from, to }),
    );
    for (const t of touches) {
      if (this.#listed.size >= APPEARED_MOST) break;
      this.#listed.add(known.abs(t.path.slice(0, Math.max(t.path.lastIndexOf("/"), 0))));
    }
    this.#journal.record(touches);
    return unseen;
  }

  /**
   * The runtime's watcher now watches `folders` (absolute), made or moved in while it was
   * behind (watch_lag.ts): what changed in them before raised no event. The held tree
   * forgets them (what it read of them may predate their watch; the journal keeps what it
   * held), and the next question reads them again, each entry compared with what is known.
   */
  caughtUp(folders: readonly string[]): void {
    for (const folder of folders) {
      this.#cache.forgetFolder(folder);
      this.#appear(folder);
    }
  }

  /** A folder to read again before the next question (the oldest let go past the bound). */
  #appear(abs: string): void {
    this.#appeared.add(abs);
    if (this.#appeared.size > APPEARED_MOST) {
      this.#appeared.delete(this.#appeared.values().next().value!);
    }
  }

  /**
   * The held tree is about to forget an entry, or a folder with what is below it, with no
   * event the journal took: the journal keeps what they are, so as to know them when they
   * change (a drop past {@linkcode REMEMBER_MOST} entries starts the journal anew).
   */
  #forgetting(abs: string, below: boolean): void {
    if (this.#applying) return;
    const known = this.#known();
    const paths = below ? [abs, ...known.below(abs, false, false, REMEMBER_MOST)] : [abs];
    if (paths.length > REMEMBER_MOST) return this.#journal.restart();
    for (const path of paths) {
      const image = known.image(path);
      if (image !== "unknown") this.#journal.remember(known.rel(path), image);
    }
  }

  /**
   * The background check found a change no event reported (a file changed through a hard
   * link, a link out made in a folder): kept as a batch of its own, the entry and, for a
   * folder, each entry in it (each one no longer there, or no longer a folder, takes what
   * was known below it: a folder moved with no event the watcher gave).
   */
  #unseen(abs: string): void {
    const known = this.#known();
    const lstat = (path: string) => this.#disk.lstat(path);
    const now = lstatImage(lstat, abs);
    const touches: Touch[] = abs === this.#cache.root
      ? [] // the root itself is no entry of it
      : [known.touch(abs, now)];
    const add = (path: string, after: Image) => touches.push(known.touch(path, after));
    /** Whether `path` is a folder now; if not (gone, or no longer one), what was below it went. */
    const folder = (path: string, image: Image) => {
      if (image !== null && image.kind & DIR) return true;
      for (const below of known.below(path)) add(below, null);
      return false;
    };
    if (folder(abs, now)) {
      const names = new Set(known.children(abs));
      try {
        for (const entry of this.#disk.readDir(abs)) names.add(entry.name);
      } catch { /* gone since: each is read as it is */ }
      for (const name of names) {
        const path = abs + hostRules.sep + name;
        const image = lstatImage(lstat, path);
        add(path, image);
        folder(path, image);
      }
    }
    this.#journal.record(touches);
  }

  /**
   * The held tree is about to keep a listing just read from disk (told once the journal has
   * begun). A name in it known to be absent was made, and a name known in the folder that
   * is not there went, before their events were taken: the disk is ahead of the events, or
   * the runtime does not watch the folder yet and never will report them (watch_lag.ts).
   * Kept now as a batch of its own: once the tree holds them, their events would find them
   * known as they are, and what changed would be lost to every clock before (contract §24).
   */
  #learning(abs: string, names: readonly string[]): void {
    const known = this.#known();
    const lstat = (path: string) => this.#disk.lstat(path);
    const sep = hostRules.sep;
    const held = this.#cache.view.names(abs);
    const before = new Set(held?.map((e) => e.name));
    const touches: Touch[] = [];
    for (const name of names) {
      // A name in the listing kept from before is known there (if it went since, its event did).
      if (before.has(name)) continue;
      const path = abs + sep + name;
      if (known.image(path) !== null) continue;
      // Gone since the listing was read (the disk moves on): kept as made and gone, or the
      // name the tree keeps, its stat not held, would be taken for one there before.
      touches.push(known.touch(path, lstatImage(lstat, path)));
    }
    const there = new Set(names);
    for (const name of known.children(abs)) {
      const path = abs + sep + name;
      if (there.has(name) || known.image(path) === null) continue;
      if (lstatImage(lstat, path) !== null) continue; // there again: read since
      for (const gone of [path, ...known.below(path)]) touches.push(known.touch(gone, null));
    }
    if (touches.length > 0) this.#journal.record(touches);
  }

  /**
   * Reads again what may have changed with no event (settle.ts): each folder that appeared
   * since the last question or clock, each one the watcher is still behind, and each once
   * more when the watcher caught up with it ({@linkcode caughtUp}); each folder whose
   * listing events changed.
   */
  #settle(): void {
    // Still behind: what is written there raises no event, so each clock reads it again.
    for (const folder of this.#behind()) this.#appear(folder);
    if (this.#appeared.size === 0 && this.#listed.size === 0) return;
    const touches = settleTouches(this.#known(), this.#disk, this.#appeared, this.#listed);
    this.#listed.clear();
    this.#appeared.clear();
    if (touches.length > 0) this.#journal.record(touches);
  }

  #known(): Known {
    return new Known(this.#cache.view, this.#journal, this.#cache.root);
  }

  /** Answers a changes call's question (ignore files read from the disk). */
  ask(query: JournalQuery): JournalAnswer {
    this.#settle();
    return askJournal(this.#journal, query, this.#disk, this.#cache.root);
  }
}

/** A new run's id (what a clock names as the run keeping a journal): 12 random hex digits. */
export function newRunId(): string {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 12);
}
