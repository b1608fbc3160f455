/**
 * Where a root's watch reaches (contract §18, "The watch's reach"). The runtime's recursive
 * watch follows links to folders as it adds its watches (notify walks the tree with
 * `follow_links`), so a link inside a root to a folder outside it would have the watch walk
 * and watch that folder's whole tree: a link to `/` or to a home folder uses up the user's
 * watches, which every other program of the user shares. Before the watch is set up, the
 * root is read for such links (names and kinds only, and each link's real path); a root with
 * one is watched in parts: every folder on the way from the root to a link out is left
 * unwatched (its listing and its entries' stats are read from disk by every scan), and each
 * of their other subfolders is watched whole. A link to a folder inside the root is followed
 * by the runtime's watch too: one that leads to a link out (or a FIFO) is a way out itself,
 * its folder left unwatched like the link out's. A FIFO or device file is met the same way: the
 * runtime's watcher opens every path an event names (and opening a FIFO blocks it), so the
 * folder that holds one, and those on its way, are left unwatched. An event costs the same
 * however many parts there are (watch_worker.ts `watchParts`); too many parts (each is
 * checked to be in place before every indexed answer) and the root walks.
 *
 * Only the watch worker uses this (it reads the roots, never through a link out: a link's
 * real path and kind are asked of the path inside the root).
 *
 * @module
 */
import { folderAbove, hostRules, isWithin } from "../../security/mod.ts";

const sep = hostRules.sep;
import { folderIdentity, type ReadFromDisk } from "./watch_messages.ts";

/**
 * The most folders watched whole in parts: each is checked to be in place before every
 * indexed answer (`planIdentity`: one `lstat` a part, about 1 ms for 700).
 */
export const MOST_PARTS = 4096;
/** The most entries the unwatched folders may hold (every scan reads them from disk). */
export const MOST_UNWATCHED_ENTRIES = 10_000;

/** How a root is watched. */
export interface WatchPlan {
  /** The folders watched whole (recursively): the root alone when no link leads out. */
  parts: string[];
  /**
   * The folders left unwatched, sorted: those on the way to a link out or to a FIFO or
   * device file.
   */
  unwatched: string[];
  /** Why: the links out and the FIFOs and device files found. */
  why: ReadFromDisk;
  /** What the watch must not reach: the links out, FIFOs and device files (their paths). */
  reach: string[];
  /** The links to folders inside the root that the watch walks through (dropped_watches.ts). */
  inner: WatchAlias[];
}

/** A path the runtime's watch names a folder by, and the folder's real path. */
export interface WatchAlias {
  path: string;
  target: string;
}

/** A plan, or why the root cannot be watched without reaching outside it. */
export type Planned = { plan: WatchPlan } | { refused: string };

/** The runtime's watch on this system walks its tree following links (not FSEvents). */
export const WATCH_FOLLOWS_LINKS = Deno.build.os !== "darwin";

/** Plans the watch of the root at real path `root`. */
export function planWatch(root: string): Planned {
  const found = reachOf(root, root, Infinity);
  const whole = {
    parts: [root],
    unwatched: [],
    why: { linksOut: 0, specialFiles: 0 },
    reach: [],
    inner: found.inner,
  };
  // Where the watch does not follow links, only FIFOs and devices are kept from it.
  const outs = WATCH_FOLLOWS_LINKS ? found.outs : [];
  const { specials } = found;
  if (outs.length === 0 && specials.length === 0) return { plan: whole };
  const unwatched = new Set<string>();
  for (const path of [...outs, ...specials]) {
    for (let dir = folderAbove(path); !unwatched.has(dir); dir = folderAbove(dir)) {
      unwatched.add(dir);
      if (dir === root) break;
    }
  }
  const parts: string[] = [];
  let entries = 0;
  for (const dir of unwatched) {
    for (const entry of listing(dir)) {
      entries++;
      const path = dir + sep + entry.name;
      if (entry.isDirectory && !unwatched.has(path)) parts.push(path);
    }
  }
  if (parts.length > MOST_PARTS || entries > MOST_UNWATCHED_ENTRIES) {
    const what = [
      ...(outs.length > 0 ? ["links lead out of it"] : []),
      ...(specials.length > 0 ? ["it holds FIFOs or device files"] : []),
    ].join(" and ");
    return {
      refused: `${what} in too many places to watch it in parts (${outs.length} links out, ` +
        `${specials.length} FIFOs or device files, ${parts.length} parts, ${entries} entries ` +
        `left unwatched)`,
    };
  }
  const why = { linksOut: outs.length, specialFiles: specials.length };
  const reach = [...outs, ...specials];
  const inner = found.inner.filter((l) => parts.some((p) => l.path.startsWith(p + sep)));
  return { plan: { parts, unwatched: [...unwatched].sort(), why, reach, inner } };
}

/** What the watch must not reach at or below a path (`reachOf`). */
interface Reach {
  /** Links to folders outside the root, and links to folders inside it that lead to those. */
  outs: string[];
  /** FIFOs and device files (`isSpecial`). */
  specials: string[];
  /** Links to folders inside the root: each path, and its folder's real path. */
  inner: WatchAlias[];
}

/**
 * The links to folders outside `root` at or below `start`, and the FIFOs and device files
 * there (and links to them), at most about `most` of both: one lstat of `start`, then names
 * and kinds of each folder; an entry of no known kind is lstat'ed, never opened.
 */
export function reachOf(
  start: string,
  root: string,
  most: number,
  /** What the watch must not reach elsewhere in the root (a plan's `reach`). */
  known: readonly string[] = [],
): Reach {
  const found: Reach = { outs: [], specials: [], inner: [] };
  const walked = walkReach(start, root, most, found);
  // A link to a folder inside the root is followed by the runtime's watch: it leads out when
  // something the watch must not reach lies in its folder (through such links too).
  const bad = [...known, ...walked.outs, ...walked.specials];
  for (let changed = true; changed;) {
    changed = false;
    for (const link of walked.inner) {
      if (bad.includes(link.path) || !bad.some((b) => isWithin(link.target, b))) continue;
      walked.outs.push(link.path);
      bad.push(link.path);
      changed = true;
    }
  }
  return walked;
}

/** `reachOf`'s walk: links, FIFOs and devices at or below `start`, no link followed. */
function walkReach(start: string, root: string, most: number, found: Reach): Reach {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(start);
  } catch {
    return found; // gone
  }
  if (info.isSymlink) {
    link(start, root, found);
    return found;
  }
  if (isSpecial(() => info)) return { ...found, specials: [start] };
  if (!info.isDirectory) return found;
  const stack = [start];
  while (stack.length > 0 && found.outs.length + found.specials.length < most) {
    const dir = stack.pop()!;
    for (const entry of listing(dir)) {
      const path = dir + sep + entry.name;
      if (entry.isDirectory) stack.push(path);
      else if (entry.isSymlink) link(path, root, found);
      else if (!entry.isFile && isSpecial(() => Deno.lstatSync(path))) found.specials.push(path);
    }
  }
  return found;
}

/**
 * Whether the entry `stat` reads (an `lstat`, or a `stat` through a link) is a FIFO or a
 * device file: what the runtime's watcher must never open (a FIFO blocks it, a device may
 * act). `false` once gone.
 */
export function isSpecial(stat: () => Deno.FileInfo): boolean {
  try {
    const info = stat();
    return !!(info.isFifo || info.isCharDevice || info.isBlockDevice);
  } catch {
    return false;
  }
}

/**
 * Where the link at `path` leads, noted in `found`: a folder outside `root` (an out), a
 * folder inside it (followed by the watch: `inner`), a FIFO or device file (a special). A
 * dangling link, or one to a file, is not followed by the watch: it does not count.
 */
function link(path: string, root: string, found: Reach): void {
  try {
    const real = Deno.realPathSync(path);
    const info = Deno.statSync(path);
    if (info.isDirectory) {
      if (isWithin(root, real)) found.inner.push({ path, target: real });
      else found.outs.push(path);
    } else if (isSpecial(() => info)) found.specials.push(path); // its end
  } catch { /* dangling, or unreadable */ }
}

/** A folder's entries (none when it cannot be read: the watch cannot walk it either). */
export function listing(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
}

/**
 * What the watch rests on, to tell it is still in place: the root folder's identity, and
 * for a plan in parts, each unwatched folder's with its subfolders' (a folder made in an
 * unwatched folder, or a part replaced, is not watched: the plan is made again). `null`
 * when the root is not a real folder now.
 */
export function planIdentity(plan: WatchPlan): string | null {
  if (plan.unwatched.length === 0) return folderIdentity(plan.parts[0]!);
  const said: string[] = [];
  for (const dir of plan.unwatched) {
    const own = folderIdentity(dir);
    if (own === null) return null;
    const subs = listing(dir).filter((e) => e.isDirectory)
      .map((e) => `${e.name}=${folderIdentity(dir + sep + e.name)}`).sort();
    said.push(`${own}[${subs.join("/")}]`);
  }
  return said.join(";");
}

/**
 * The runtime's calls that watch a plan: `events`, read for its events; `holder`, the one
 * that holds the parts' watches and ignores every event, kept open with it (or `null`).
 */
export interface WatchCalls {
  events: Deno.FsWatcher;
  holder: Deno.FsWatcher | null;
}

/**
 * The runtime's watch of a plan, one ordered stream of its events and its cookies'. A root
 * watched whole is one recursive call on it and the private folder. A root watched in parts
 * is two calls: the runtime compares each event with each path of each call in turn
 * (opening both, `is_same_file`, then a prefix of their real paths) until one matches, so a
 * call on the parts would cost an event about 11 µs a part before the one it lies in (7.7 ms
 * with 700 parts: docs/index.md). So the parts are watched by a recursive call that keeps
 * the runtime's watches and ignores every event (`ignore`: the root and the private folder,
 * matched at once), and the events are read from a call on the root and the private folder
 * that is not recursive (it follows no link), whose first path is a prefix of every event
 * under the root: one comparison an event, however many the parts. The parts are registered
 * after the private folder's non-recursive watch, so that the runtime keeps watching what is
 * made in the private folder (its last registration of a path decides). But the call on the
 * root watches the root's own entries: where the root folder itself holds a FIFO or device
 * file (which an event would have the runtime open), the parts are one call, as before.
 * Only the watch worker calls this.
 */
export function watchParts(plan: WatchPlan, root: string, cookies: string): WatchCalls {
  const special = (p: string) => folderAbove(p) === root && isSpecial(() => Deno.statSync(p));
  if (plan.unwatched.length === 0 || plan.reach.some(special)) {
    return { events: Deno.watchFs([...plan.parts, cookies], { recursive: true }), holder: null };
  }
  const events = Deno.watchFs([root, cookies], { recursive: false });
  try {
    const holder = Deno.watchFs([...plan.parts, cookies], {
      recursive: true,
      ignore: [root, cookies],
    });
    return { events, holder };
  } catch (err) {
    events.close();
    throw err;
  }
}
