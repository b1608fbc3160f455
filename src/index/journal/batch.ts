/**
 * One batch of change events made into the journal's touches (contract §24): each entry an
 * event names, the folder that holds it (its listing changed), everything known below a
 * folder removed or moved (it went with it), and, under a folder moved, each entry under
 * its new path renamed from its old one; each with its image before (what was known
 * before the events, known.ts) and after (one `lstat` on disk once they are applied).
 * A folder that appears (made, moved, or moved in from outside the root) is read below on
 * disk: what it holds that no event named was created with it (and again before the next
 * question or clock: settle.ts).
 *
 * @module
 */
import type { FsPort } from "../../ports/mod.ts";
import { hostRules } from "../../security/mod.ts";
import { DIR } from "../store/mod.ts";
import type { Change } from "../watch/mod.ts";
import { realFolder } from "../cache/mod.ts";
import { type Image, lstatImage } from "./image.ts";
import type { Touch } from "./journal.ts";
import type { Known } from "./known.ts";

/** The most pairs of a move's lone ends tried in one batch (each end against each other). */
const PAIRS_MOST = 10_000;

/** The most folders paired by inode in one batch, and entries read to find them. */
const PAIRS_FOLDERS_MOST = 100;

/** The most entries read below one folder that appears in one batch. */
export const NEW_FOLDER_MAX_ENTRIES = 100_000;

interface Named {
  /** An event named it, or a folder above it that was moved or removed. */
  named: boolean;
  written: boolean;
  from?: string;
  made: boolean;
  before: Image | "unknown";
  /** Its kind before, where `before` is not known but its kind is (contract §24a). */
  kind: number | null;
}

/**
 * The touches of `changes` on the root at `rootReal`; `apply` makes the index forget what
 * they name, between the look before and the reads after.
 */
export function batchTouches(
  changes: readonly Change[],
  known: Known,
  disk: FsPort,
  rootReal: string,
  apply: () => void,
  /** Told of each folder that appeared: the runtime watches it only once it has told us. */
  appeared: (abs: string) => void = () => {},
  /** Folders that appeared earlier, not yet read again or watched (asked only when needed). */
  earlier: () => Iterable<string> = () => [],
  /** Told of each folder found moved by its inode: the runtime's watch of it may be lost. */
  unseen: (from: string, to: string) => void = () => {},
): Touch[] {
  const sep = hostRules.sep;
  const inside = (abs: string) => abs.startsWith(rootReal + sep);
  const lstat = (abs: string) => disk.lstat(abs);
  const named = new Map<string, Named>();
  // An event under a link inside the root names the path the runtime's watch walked: it
  // happened in the real folder the link leads to (never followed out of the root).
  const resolve = (abs: string): string | null => {
    if (!inside(abs)) return null;
    const dir = abs.slice(0, abs.lastIndexOf(sep));
    if (named.has(dir) || known.isFolder(dir)) return abs;
    const real = realFolder(disk, rootReal, dir);
    if (real === null) return null;
    if (real !== dir || lstatImage(lstat, dir) !== null) return real + abs.slice(dir.length);
    // Its folder is gone: one the runtime saw moved no further than its old name (moved into
    // a folder not yet watched) still reports its events under that name.
    const moved = known.movedTo(dir);
    return moved === undefined ? abs : moved + abs.slice(dir.length);
  };
  const add = (given: string, written: boolean, made = false, from?: string, only = false) => {
    const abs = resolve(given);
    if (abs === null) return;
    let n = named.get(abs);
    if (!n) {
      const before = known.image(abs);
      const kind = before === "unknown" ? known.kindOf(abs) : null;
      named.set(abs, n = { named: !only, written, made, before, kind });
    }
    n.named ||= !only;
    n.written ||= written;
    n.made ||= made;
    const source = from === undefined ? null : resolve(from);
    if (source !== null) n.from = source;
  };
  /**
   * The folder that holds `abs` (its listing changed), and each folder above it thought
   * absent (a folder moved in that no event named): looked at too, made if found there.
   */
  const parentOf = (abs: string) => {
    for (let dir = abs.slice(0, abs.lastIndexOf(sep)); dir.length > rootReal.length;) {
      const seen = named.has(dir);
      add(dir, false, false, undefined, true);
      if (seen || known.image(dir) !== null) return;
      dir = dir.slice(0, dir.lastIndexOf(sep));
    }
  };
  /** `from` moved to `to`, with everything known below it. */
  const moved = (from: string, to: string) => {
    known.moved(from, to);
    add(from, false);
    add(to, false, true, from);
    // What was known at `to` before (replaced; or, the disk ahead of the events, what a
    // question read there already) is looked at again too.
    for (const below of known.below(to)) add(below, false);
    for (const below of known.below(from, true)) {
      add(below, false);
      add(to + below.slice(from.length), false, true, below);
    }
    parentOf(from);
    parentOf(to);
  };
  const gone: string[] = []; // named by a removal
  const lone: string[] = []; // named by one end of a move
  for (const { kind, paths } of changes) {
    if (kind === "access") continue;
    if (kind === "rename" && paths.length === 2) {
      // Each end where it is now (a folder above it moved, its old name given).
      const [from, to] = paths.map((abs) => resolve(abs) ?? abs);
      moved(from!, to!);
      continue;
    }
    // Only a write (or a change of its mode) is a write: what else an event says shows in
    // the entry's kind, size, times or inode; a folder's listing shows in its own time, so
    // a folder is never counted as written.
    for (const abs of paths) {
      // Where it is now: under a folder's new name, if the runtime gave its old one.
      const at = kind === "modify" ? null : resolve(abs);
      if (at !== null && (kind === "remove" || kind === "rename")) {
        (kind === "remove" ? gone : lone).push(at);
      }
      add(abs, kind === "modify", kind === "create");
      if (kind === "modify") continue;
      for (const below of known.below(at ?? abs)) add(below, false);
      parentOf(at ?? abs);
    }
  }
  pairMoves(gone, lone);
  /**
   * A move whose two ends the runtime did not pair (they came apart, on a busy machine):
   * paired here when one end arrived and exactly one entry of its kind went.
   */
  function pairMoves(gone: string[], lone: string[]): void {
    const kindOf = (image: Image | "unknown") =>
      image === null || image === "unknown" ? null : image.kind;
    gone.push(...lone.filter((path) => lstatImage(lstat, path) === null));
    // Each end against each other: on a storm of them, not worth it (removed + created).
    if (lone.length * gone.length > PAIRS_MOST) return;
    const sources = new Set<string>();
    for (const n of named.values()) if (n.from !== undefined) sources.add(n.from);
    const went = gone.filter((g) => lstatImage(lstat, g) === null);
    for (const to of lone) {
      const n = named.get(to);
      const now = lstatImage(lstat, to);
      if (!n || n.from !== undefined || now === null || n.before !== null) continue;
      const from = went.filter((g) =>
        !sources.has(g) && kindOf(named.get(g)?.before ?? null) === now.kind
      );
      if (from.length !== 1) continue;
      moved(from[0]!, to);
      sources.add(from[0]!);
    }
    pairByInode(went.filter((g) => !sources.has(g)));
  }
  /**
   * A folder moved into a folder made or moved in just before, which the runtime watched only
   * after the move: its one end came (the folder gone), the other never will; the folder is
   * found in the one that appeared, by its inode: in this batch, or in an earlier one (then
   * read below already, taken as made with it). Its runtime watch may be lost: told `unseen`.
   */
  function pairByInode(went: string[]): void {
    const folders = new Map<number, string>();
    for (const g of went) {
      const before = named.get(g)?.before;
      if (before && before !== "unknown" && before.kind & DIR && before.ino != null) {
        folders.set(before.ino, g);
      }
    }
    if (folders.size === 0 || folders.size > PAIRS_FOLDERS_MOST) return;
    const top = (a: string) => !named.get(a.slice(0, a.lastIndexOf(sep)))?.made;
    const made = [...named].filter(([a, n]) => n.made && (!n.from || top(a))).map(([a]) => a);
    for (const folder of earlier()) {
      if (made.length >= PAIRS_FOLDERS_MOST) break;
      if (!named.has(folder)) made.push(folder);
    }
    for (const parent of made.slice(0, PAIRS_FOLDERS_MOST)) {
      for (const below of readBelow(disk, parent, PAIRS_FOLDERS_MOST)) {
        const now = named.has(below) ? null : lstatImage(lstat, below);
        const from = now && now.kind & DIR && now.ino != null ? folders.get(now.ino) : undefined;
        if (from === undefined || from === below) continue;
        folders.delete(now!.ino!);
        moved(from, below);
        unseen(from, below);
      }
    }
  }
  apply();
  const touches: Touch[] = [];
  const rel = (abs: string) => known.rel(abs);
  /** Whether a folder above `abs` was not there before this batch (then neither was it). */
  const newBelow = (abs: string) => {
    for (let d = abs.slice(0, abs.lastIndexOf(sep)); d.length > rootReal.length;) {
      const above = named.get(d);
      if (above && (above.before === null || (above.made && above.before === "unknown"))) {
        return true;
      }
      d = d.slice(0, d.lastIndexOf(sep));
    }
    return false;
  };
  for (const [abs, n] of named) {
    // Made in this batch and not known before, or below a folder that was not there: it
    // was not there.
    const before = n.before === "unknown" && (n.made || newBelow(abs)) ? null : n.before;
    const after = lstatImage(lstat, abs);
    // The disk may be ahead of the events: a folder no event named, found gone or no longer
    // a folder, was moved or removed by a change whose event is still to come, and says so.
    if (!n.named && (after === null || !(after.kind & DIR))) continue;
    touches.push({
      path: rel(abs),
      before,
      ...(before === "unknown" && n.kind !== null ? { kind: n.kind } : {}),
      after,
      written: n.written && !(after !== null && after.kind & DIR),
      ...(n.from === undefined ? {} : { from: rel(n.from) }),
    });
    // A folder made or moved here: what it holds now and no event named was made with it.
    if (after !== null && after.kind & DIR && (before === null || n.made)) {
      appeared(abs);
      for (const below of readBelow(disk, abs)) {
        if (named.has(below)) continue;
        touches.push({
          path: rel(below),
          before: null,
          after: lstatImage(lstat, below),
          written: false,
        });
      }
    }
  }
  return readAgainBelowGone(touches, lstat, known, (abs) => named.get(abs)?.named === true);
}

/**
 * The disk moves while a batch is read (a package moved between two `lstat`s): what it read
 * as there below a folder gone now is read again, in rounds until none is; one then gone that
 * no event named is left as it was, as one found gone at once is (its event is still to come).
 */
function readAgainBelowGone(
  touches: Touch[],
  lstat: (abs: string) => Deno.FileInfo,
  known: Known,
  byEvent: (abs: string) => boolean,
): Touch[] {
  for (let again = true; again;) {
    again = false;
    const gone = new Set(touches.filter((t) => t.after === null).map((t) => t.path));
    const there = new Map<string, boolean>(); // each folder looked at: a folder on disk now
    touches = touches.filter((t) => {
      const at = t.path.lastIndexOf("/");
      if (t.after === null || at < 0) return true;
      const dir = t.path.slice(0, at);
      let folder = there.get(dir);
      if (folder === undefined) {
        const image = gone.has(dir) ? null : lstatImage(lstat, known.abs(dir));
        there.set(dir, folder = image !== null && (image.kind & DIR) !== 0);
      }
      if (folder) return true;
      const path = known.abs(t.path);
      if ((t.after = lstatImage(lstat, path)) !== null) return true;
      again = true; // what was read below it, looked at again
      return byEvent(path);
    });
  }
  return touches;
}

/** Every entry below folder `abs` on disk, not through links, up to a bound. */
export function readBelow(disk: FsPort, abs: string, most = NEW_FOLDER_MAX_ENTRIES): string[] {
  const out: string[] = [];
  const folders = [abs];
  while (folders.length > 0 && out.length < most) {
    const dir = folders.pop()!;
    let entries: Deno.DirEntry[] = [];
    try {
      entries = [...disk.readDir(dir)];
    } catch { /* gone, or unreadable: none (a walk skips it too) */ }
    for (const { name, isDirectory, isSymlink } of entries) {
      out.push(dir + hostRules.sep + name);
      if (isDirectory && !isSymlink) folders.push(out.at(-1)!);
    }
  }
  return out;
}
