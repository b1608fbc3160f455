/**
 * A root's watch worker (contract §18): it sets up one `Deno.watchFs` call on the root and
 * on the root's private folder of cookies (the runtime walks the tree to add one watch per
 * folder, so this runs here, never where calls are answered), sends the changes on in
 * batches, and passes barriers: asked for one, it writes a cookie in the private folder
 * and answers once the cookie's event is back, every change read before it sent first
 * (cookies.ts says why that is exact). A run of events long enough to have overflowed the
 * kernel's queue is sent on as a loss, like the runtime's own `rescan`.
 *
 * Permissions: reading the roots and the private folder, writing the private folder only.
 *
 * Acts when loaded: only ever loaded as a worker.
 *
 * @module
 */
import { Cookies, FENCE_EVERY } from "./cookies.ts";
import { HeldWatches, RUNTIME_DROPS_WATCHES } from "./held_watches.ts";
import { DroppedWatches } from "./dropped_watches.ts";
import { ClosedFolders, notPlainFile } from "./made_entries.ts";
import { WatchLag } from "./watch_lag.ts";
import {
  type Change,
  folderIdentity,
  type WatchCommand,
  watchFailure,
  type WatchReport,
  writeFailure,
} from "./watch_messages.ts";
import {
  planIdentity,
  planWatch,
  reachOf,
  WATCH_FOLLOWS_LINKS,
  watchParts,
  type WatchPlan,
} from "./watch_plan.ts";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WatchCommand>) => void) | null;
  postMessage(message: WatchReport): void;
};

let pending: Change[] = [];
let rescan = false;
/** Folders made or moved in, not yet known to be watched (watch_lag.ts): wave and paths. */
let behind: { wave: number; folders: string[] } | null = null;
/** The last wave the runtime's watcher caught up with, not yet sent. */
let caughtUp: number | null = null;
/** Folders held again where the runtime may have dropped their watch, not yet said. */
let held: string[] = [];
let heldWatches: HeldWatches | null = null;
let dropped: DroppedWatches | null = null;
let cookies: Cookies | null = null;
let lag: WatchLag | null = null;
let plan: WatchPlan | null = null;
let rootPath = "";
const sep = Deno.build.os === "windows" ? "\\" : "/";
/**
 * How often the root folder is checked to still be the one watched, in ms, while nobody asks
 * (every barrier checks it too, so no answer waits for this): rare, so that idle is idle.
 */
const ROOT_CHECK_MS = 5000;
/** Barriers asked for before the watch was in place. */
const early: number[] = [];

function send(): void {
  if (pending.length === 0 && !rescan && !behind && !caughtUp && held.length === 0) return;
  const lagNews = {
    ...(behind ? { behind } : {}),
    ...(caughtUp ? { caughtUp } : {}),
    ...(held.length > 0 ? { held } : {}),
  };
  scope.postMessage({ type: "changes", changes: pending, rescan, ...lagNews });
  pending = [];
  rescan = false;
  behind = null;
  caughtUp = null;
  held = [];
}

/**
 * The real folders among a made or renamed entry's paths are behind the watcher, by their
 * real paths (the runtime may name one through a link inside the root; the index holds
 * real paths).
 */
function noteBehind(paths: readonly string[]): void {
  for (const path of paths) {
    let real: string;
    try {
      real = Deno.realPathSync(path);
    } catch {
      continue; // gone already
    }
    if (!real.startsWith(rootPath + sep) || folderIdentity(real) === null) continue;
    const wave = lag!.behind();
    behind ??= { wave, folders: [] };
    behind.folders.push(real);
  }
}

/** Writes a cookie for `barrier` (or a fence); a cookie that cannot be written ends the watch. */
function writeCookie(barrier: number | null): void {
  const path = cookies!.cookie(barrier);
  try {
    Deno.writeFileSync(path, new Uint8Array(), { createNew: true });
  } catch (err) {
    cannotWrite("its barrier cookie", err);
  }
}

/**
 * A write in the private folder failed: the watch ends. Its private folder removed from
 * outside: it is set up again at once, which makes the folder again.
 */
function cannotWrite(what: string, err: unknown): void {
  send();
  const gone = err instanceof Deno.errors.NotFound;
  scope.postMessage({
    type: "error",
    reason: gone
      ? "its private folder was removed from outside; made again"
      : `${what} could not be written (${writeFailure(err)})`,
    ...(gone ? { soon: true } : {}),
  });
}

function removeCookie(path: string): void {
  try {
    Deno.removeSync(path);
  } catch { /* already gone */ }
}

async function watch(command: Extract<WatchCommand, { type: "watch" }>): Promise<void> {
  rootPath = command.path;
  // Planned before the watch, so that it never walks a link out (watch_plan.ts).
  const planned = planWatch(rootPath);
  if ("refused" in planned) {
    scope.postMessage({ type: "failed", reason: planned.refused, retry: false });
    return;
  }
  const watched = plan = planned.plan;
  // Taken before the watch: a root replaced in between shows as replaced, never the reverse.
  const root = planIdentity(watched);
  let watcher: Deno.FsWatcher;
  let holder: Deno.FsWatcher | null;
  try {
    ({ events: watcher, holder } = watchParts(watched, rootPath, command.cookies));
  } catch (err) {
    scope.postMessage({ type: "failed", reason: watchFailure(err), retry: true });
    return;
  }
  // Apart from an earlier watch's cookies and probes, which it may have left in the folder.
  const tag = `${crypto.randomUUID().slice(0, 8)}-`;
  cookies = new Cookies(command.cookies, command.queueLimit, sep, FENCE_EVERY, tag);
  lag = new WatchLag(command.cookies, sep, (err) => cannotWrite("its probe", err), undefined, tag);
  heldWatches = new HeldWatches(rootPath, sep);
  dropped = RUNTIME_DROPS_WATCHES ? new DroppedWatches(rootPath, sep) : null;
  dropped?.links(watched.inner);
  scope.postMessage({ type: "ready", root, unwatched: watched.unwatched, why: watched.why });
  for (const id of early.splice(0)) writeCookie(id);
  // The watch stays on the folders it started on: a root moved away (and made again), or a
  // part replaced or added, ends it.
  let moved = false;
  const ended = () => {
    if (moved) return;
    moved = true;
    clearInterval(checking);
    send();
    scope.postMessage({ type: "moved" });
  };
  const checking = setInterval(() => {
    if (planIdentity(watched) !== root) ended();
  }, ROOT_CHECK_MS);
  // A watched folder removed or moved away takes its watch with it, even when a folder made
  // in its place at once has its inode and so its identity (`rm -rf build && mkdir build`):
  // the runtime's event naming the folder itself says so.
  const parts = new Set(watched.parts);
  try {
    for await (const event of watcher) {
      if (event.flag === "rescan") rescan = true; // the runtime lost events: start over
      const read = cookies.read(event.paths);
      if (read.overflowed) rescan = true;
      if (read.back !== null) removeCookie(read.back);
      const lagRead = lag.read(event.paths);
      if (lagRead.closed) send(); // the folders behind so far are one wave
      if (lagRead.caughtUp !== null) {
        caughtUp = lagRead.caughtUp;
        send();
      }
      if (
        (event.kind === "remove" || event.kind === "rename") &&
        event.paths.some((p) => parts.has(p))
      ) ended();
      const led = dropped?.told(event) ?? [];
      if (led.length > 0 && toHold.length === 0) setTimeout(holdGathered, 0);
      toHold.push(...led);
      if (!read.cookie && event.flag !== "rescan") {
        pending.push({ kind: event.kind, paths: event.paths });
        if (pending.length === 1) setTimeout(send, 0); // one batch per turn of the loop
        if (event.kind === "create" || event.kind === "rename") {
          const made = event.paths.filter(notPlainFile);
          if (made.length > 0) {
            lookForLinksOut(made);
            noteBehind(made);
            lookForOpened(event.kind, made);
          }
        } else lookForOpened(event.kind, event.paths);
      }
      if (rescan && pending.length === 0) setTimeout(send, 0);
      if (read.passed.length > 0) {
        holdGathered();
        send();
        const now = planIdentity(watched);
        for (const id of read.passed) scope.postMessage({ type: "passed", id, root: now });
      }
      if (cookies.fenceDue) writeCookie(null);
    }
  } catch (err) {
    send();
    scope.postMessage({ type: "error", reason: watchFailure(err) });
  } finally {
    holder?.close(); // the parts' watches go with the watch that read their events
    heldWatches?.close();
  }
}

/**
 * A link to a folder outside the root made or moved into a watched part, or a folder with
 * one, or with a FIFO or device file: the runtime follows the link the next time it walks
 * that folder (at once for a folder moved in), and opens the FIFO when an event names it,
 * so the watch is planned again (said once). (A FIFO made in a watched folder is opened
 * by the runtime as it reports it: that stalls the watch, which its barrier's deadline ends.)
 */
function lookForLinksOut(paths: readonly string[]): boolean {
  for (const path of paths) {
    if (plan === null || !path.startsWith(rootPath + sep)) continue;
    const found = reachOf(path, rootPath, 1, plan.reach);
    // Those inside a folder the runtime walks (it does not walk a link made or moved alone).
    dropped?.links(found.inner.filter((link) => link.path !== path));
    const outs = WATCH_FOLLOWS_LINKS ? found.outs.length : 0;
    if (outs === 0 && found.specials.length === 0) continue;
    plan = null;
    scope.postMessage({ type: "replan", special: outs === 0 });
  }
  return plan === null;
}

/**
 * Folders whose runtime watch may be lost: found moved with only their old name given (by
 * the index), or told by an event (dropped_watches.ts). Those in each watched
 * part still there are held, the fewest that walk them all (held_watches.ts), after the same
 * look for links out as a folder moved in; all are said held with the next changes, for the
 * index to read them once more. Past what a watch holds, it is set up again.
 */
function holdAgain(folders: readonly string[]): void {
  let done: string[] | "again" | "out";
  try {
    done = heldWatches!.holdAll(folders, plan?.parts ?? [], (f) => lookForLinksOut([f]));
  } catch (err) {
    send();
    return scope.postMessage({ type: "error", reason: watchFailure(err) });
  }
  if (done === "out") return;
  if (done === "again") plan = null;
  else held.push(...new Set([...done, ...folders]));
  send();
  if (done === "again") scope.postMessage({ type: "replan", held: true });
}

/** Folders events told of (dropped_watches.ts), held once the turn's events are read. */
const toHold: string[] = [];

/** Holds the folders gathered (before a barrier passes, or once the turn's events are read). */
function holdGathered(): void {
  if (toHold.length > 0) holdAgain(toHold.splice(0));
}

/** Folders made closed to this user, and so not watched by the runtime (made_entries.ts). */
const closed = new ClosedFolders();

/** Sets the watch up again when a folder the runtime could not watch is opened. */
function lookForOpened(kind: string, paths: readonly string[]): void {
  if (plan === null) return;
  if (!closed.opened(kind, paths.filter((p) => p.startsWith(rootPath + sep)))) return;
  plan = null;
  scope.postMessage({ type: "replan", opened: true });
}

scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === "watch") void watch(command);
  else if (command.type === "hold") {
    for (const { from, to } of command.moves) dropped?.moved(from, to);
    holdAgain(command.moves.map((move) => move.to));
  } else if (cookies === null) early.push(command.id);
  else writeCookie(command.id);
};
