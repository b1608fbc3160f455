/**
 * A root's journal against a diff of the disk (contract §24), with the runtime's watcher as
 * a model that can be late in every way it is on a busy machine: an install unpacks
 * packages into staging folders and moves each into place while the events come in
 * batches cut anywhere, a new folder is watched only some time after its event (by the
 * name it had then: gone, if it was moved meanwhile), a folder moved keeps reporting under
 * its old name until the runtime watches it again, a move's two ends come apart; and
 * between any two of those, a question reads the tree through the held tree, a clock is
 * given, the background checks look at folders' times and entries' stats, the watcher is
 * found caught up. With events as Deno gives them (a move's old name as a removal, then its
 * new one, then both; an event under a folder's old name dropped), a package may also be
 * moved into place while the journal reads the disk, and Deno's filter may read the disk as
 * late as the batch an event comes in. Whatever the order, the net changes since the
 * journal began are the disk's, also after the install's folders are renamed, moved into
 * others or removed (`rm -rf`: an event as each entry goes) and files made in them or
 * removed. Each choice is drawn from a seed fast-check picks (and reports).
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { TreeCache } from "../../src/index/cache/tree_cache.ts";
import { fillRequest } from "../../src/index/fill/fill_request.ts";
import { RootJournal } from "../../src/index/journal/root_journal.ts";
import type { Change } from "../../src/index/watch/mod.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs, type FsPort } from "../../src/ports/fs.ts";
import { strictGuard } from "../../src/security/guard.ts";
import { scan } from "../../src/walk/scan.ts";
import { asDiff, diff, type NetChange, snapshot } from "../helpers/snapshot.ts";
import { makeTree, T0 } from "../helpers/tree.ts";

const posix = Deno.build.os !== "windows";

/** The runtime's watcher as a model: what it watches, under which name, what it owes. */
class WatcherModel {
  /** Folder watched, by its path now: the name its events carry. */
  readonly named = new Map<string, string>();
  /** Folders to watch once the runtime gets to them (with what is in them then), by name. */
  readonly owed: string[] = [];
  /** Folders now watched, not yet found so (watch_lag.ts). */
  readonly caught: string[] = [];
  /** Folders made and not yet watched. */
  readonly behind = new Set<string>();
  readonly events: Change[] = [];
  /** Events as Deno gives them (below), or as a bare watcher would. */
  readonly #deno: boolean;
  /** Deno's filter applied as each batch is taken, not as each event is made (a late watch). */
  readonly #late: boolean;

  constructor(root: string, deno: number) {
    this.named.set(root, root);
    this.#deno = deno > 0;
    this.#late = deno > 2;
  }

  /** The next `count` events, as the index is given them. */
  take(count: number): Change[] {
    const taken = this.events.splice(0, count);
    return this.#late ? taken.flatMap((e) => this.#filtered(e.kind, e.paths)) : taken;
  }

  /** An entry made or written at `abs`: an event if its folder is watched. */
  event(kind: Change["kind"], abs: string, folder = false): void {
    const name = this.#nameOf(abs);
    if (name === undefined) return;
    this.#push(kind, [name]);
    if (folder && kind === "create") this.#owe(name);
  }

  /**
   * Deno's filter of each event (runtime/ops/fs_events.rs, notify 8): as it is if a path is
   * there when it is read; else a removal if a path's folder is; else dropped (an event
   * under the old name of a folder moved since).
   */
  #push(kind: Change["kind"], paths: string[]): void {
    if (this.#late) this.events.push({ kind, paths });
    else this.events.push(...this.#filtered(kind, paths));
  }

  #filtered(kind: Change["kind"], paths: string[]): Change[] {
    const there = (abs: string) => {
      try {
        Deno.lstatSync(abs);
        return true;
      } catch {
        return false;
      }
    };
    if (this.#deno && !paths.some(there)) {
      if (!paths.some((p) => there(p.slice(0, p.lastIndexOf("/"))))) return [];
      kind = "remove";
    }
    return [{ kind, paths }];
  }

  /**
   * A folder moved from `from` to `to` (the move done): an end for each watched folder, the
   * two in one event unless they come apart; the folder watched again under its new name.
   */
  moved(from: string, to: string, apart: boolean): void {
    const a = this.#nameOf(from); // its folder's name for it, before the move
    for (const [path, name] of [...this.named]) {
      if (path !== from && !path.startsWith(from + "/")) continue;
      this.named.delete(path);
      this.named.set(to + path.slice(from.length), name); // still reports the old name
    }
    const b = this.#nameOf(to);
    if (this.#deno) {
      // notify gives the old name, the new one, then both (unless another move came
      // between them): the old name, gone, reaches the index as a removal.
      if (a !== undefined) this.#push("rename", [a]);
      if (b !== undefined) this.#push("rename", [b]);
      if (a !== undefined && b !== undefined && !apart) this.#push("rename", [a, b]);
    } else if (a !== undefined && b !== undefined && !apart) {
      this.events.push({ kind: "rename", paths: [a, b] });
    } else {
      if (a !== undefined) this.events.push({ kind: "rename", paths: [a] });
      if (b !== undefined) this.events.push({ kind: "rename", paths: [b] });
    }
    if (b !== undefined) this.#owe(to);
  }

  /** The runtime watches the next folder it owes, and every folder in it now. */
  watchNext(): void {
    const name = this.owed.shift();
    if (name === undefined) return;
    const visit = (abs: string) => {
      try {
        if (!Deno.lstatSync(abs).isDirectory) return;
        this.named.set(abs, abs);
        for (const e of Deno.readDirSync(abs)) if (e.isDirectory) visit(`${abs}/${e.name}`);
      } catch { /* moved away before it was watched: never, by that name */ }
    };
    visit(name);
    this.caught.push(name);
  }

  #owe(name: string): void {
    this.owed.push(name);
    this.behind.add(name);
  }

  #nameOf(abs: string): string | undefined {
    const at = abs.lastIndexOf("/");
    const folder = this.named.get(abs.slice(0, at));
    return folder === undefined ? undefined : folder + abs.slice(at);
  }
}

/** Draws in [0, 1) from `seed` (a linear congruential generator: the same each run). */
function draws(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Every folder (or every file) below `folder` on disk. */
function below(folder: string, files: boolean): string[] {
  const out: string[] = [];
  const visit = (abs: string) => {
    for (const e of Deno.readDirSync(abs)) {
      if (e.isDirectory !== files) out.push(`${abs}/${e.name}`);
      if (e.isDirectory) visit(`${abs}/${e.name}`);
    }
  };
  visit(folder);
  return out;
}

/**
 * One install of `packages` packages of `files` files, then fewer than `later` changes of
 * what it made (a folder renamed, or with `across` moved into another, or removed; a file
 * made or removed), raced by the draws of `seed`.
 */
async function install(
  packages: number,
  files: number,
  seed: number,
  later = 0,
  across = false,
  /**
   * 1: events as Deno gives them, packages moved mid-read; 2: later changes mid-read too;
   * 3: and Deno's filter of each event as late as the batch it comes in.
   */
  deno = 0,
) {
  const draw = draws(seed);
  /** A change made while the journal reads the disk: after its `at`-th `lstat` from now. */
  let during: { at: number; run: () => void } | null = null;
  const changeNow = () => {
    const run = during?.run;
    during = null;
    run?.();
  };
  const disk: FsPort = {
    ...denoFs,
    lstat: (path) => {
      try {
        return denoFs.lstat(path);
      } finally {
        if (during !== null && --during.at <= 0) changeNow();
      }
    },
  };
  await using tree = await makeTree({ "package.json": { mtime: T0 } });
  const root = { path: tree.root, realPath: tree.root };
  const cache = new TreeCache({ base: denoFs, rootReal: tree.root, maxEntries: 10_000 });
  cache.record(true);
  const question = () =>
    scan(fillRequest(root, 10_000), { fs: cache, clock: systemClock, guard: strictGuard });
  await question(); // the fill
  const watcher = new WatcherModel(tree.root, deno);
  const bounds = { maxSteps: 100_000, maxAgeMs: 1e12 };
  const journal = new RootJournal(cache, disk, bounds, Date.now, () => watcher.behind);
  journal.begin();
  const from = journal.position;
  const before = snapshot(tree.root);
  const caughtUp = () => {
    const folder = watcher.caught.shift();
    if (folder === undefined) return;
    watcher.behind.delete(folder);
    journal.caughtUp([folder]);
  };
  /** What the index may do between two writes of the install. */
  const meanwhile = async () => {
    while (draw() < 0.5) {
      const what = draw();
      if (what < 0.35) {
        const batch = watcher.take(Math.floor(draw() * (watcher.events.length + 1)));
        if (batch.length > 0) journal.apply(batch);
      } else if (what < 0.55) watcher.watchNext();
      else if (what < 0.7) {
        cache.begin(watcher.behind);
        await question();
      } else if (what < 0.8) caughtUp();
      else if (what < 0.85) journal.clock();
      else if (what < 0.93) { for (let f = 0; f < cache.records; f++) cache.recheck(f); }
      else for (let f = 0; f < cache.records; f++) cache.recheckEntries(f, 0, () => false);
    }
  };
  const made = (abs: string) => {
    try {
      Deno.mkdirSync(abs);
      watcher.event("create", abs, true);
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
  };
  /** `rm -rf`: what is deepest first, an event for each entry whose folder is watched. */
  const removed = async (folder: string) => {
    const all: string[] = [];
    const visit = (abs: string) => {
      for (const e of Deno.readDirSync(abs)) {
        if (e.isDirectory) visit(`${abs}/${e.name}`);
        all.push(`${abs}/${e.name}`);
      }
    };
    try {
      visit(folder);
    } catch {
      return; // removed already
    }
    for (const path of [...all, folder]) {
      Deno.removeSync(path);
      watcher.event("remove", path);
      if (draw() < 0.3) await meanwhile();
    }
  };
  const modules = tree.abs("node_modules");
  made(modules);
  for (let p = 0; p < packages; p++) {
    const staging = `${modules}/.staging-${p}`;
    for (let f = 0; f < files; f++) {
      made(staging);
      made(`${staging}/lib${f % 3}`);
      await meanwhile();
      const file = `${staging}/lib${f % 3}/file${f}.js`;
      Deno.writeTextFileSync(file, `${p}/${f}`);
      watcher.event("create", file);
      watcher.event("modify", file);
      await meanwhile();
    }
    const move = () => {
      Deno.renameSync(staging, `${modules}/pkg${p}`);
      watcher.moved(staging, `${modules}/pkg${p}`, draw() < 0.5);
    };
    // Moved while the journal reads the disk (an install in the suite, root_journal_test.ts).
    if (deno > 0 && draw() < 0.3) during = { at: 1 + Math.floor(draw() * 30), run: move };
    else move();
    await meanwhile();
    changeNow(); // not read meanwhile: moved now
    if (draw() < 0.35) await removed(`${modules}/pkg${Math.floor(draw() * (p + 1))}`);
  }
  /** A change made now, or with `deno` past 1 maybe while the journal reads the disk. */
  const change = (made: () => void) => {
    if (deno > 1 && draw() < 0.3) during = { at: 1 + Math.floor(draw() * 30), run: made };
    else made();
  };
  for (let k = 0, changes = Math.floor(draw() * later); k < changes; k++) {
    const [what, folders] = [draw(), below(modules, false)];
    const one = (of: string[]) => of[Math.floor(draw() * of.length)]!;
    if (what < 0.35 && folders.length > 0) {
      const from = one(folders);
      const into = across
        ? one([modules, ...folders].filter((d) => d !== from && !d.startsWith(from + "/")))
        : from.slice(0, from.lastIndexOf("/"));
      change(() => {
        Deno.renameSync(from, `${into}/m${k}`);
        watcher.moved(from, `${into}/m${k}`, draw() < 0.5);
      });
    } else if (what < 0.5 && folders.length > 0) await removed(one(folders));
    else if (what < 0.8) {
      const file = `${one([modules, ...folders])}/n${k}.js`;
      Deno.writeTextFileSync(file, "x".repeat(k));
      watcher.event("create", file);
      watcher.event("modify", file);
    } else if (below(modules, true).length > 0) {
      const file = one(below(modules, true));
      change(() => {
        Deno.removeSync(file);
        watcher.event("remove", file);
      });
    }
    await meanwhile();
    changeNow(); // not read meanwhile: made now
  }
  const after = snapshot(tree.root);
  // Every event comes, every folder is watched in the end.
  while (watcher.events.length + watcher.owed.length + watcher.caught.length > 0) {
    if (watcher.events.length > 0) journal.apply(watcher.take(watcher.events.length));
    watcher.watchNext();
    while (watcher.caught.length > 0) caughtUp();
  }
  const answer = journal.ask({
    since: { position: from },
    until: null,
    startPath: "",
    filter: { ...fillRequest(root, 10_000).filter, includeDirectories: true },
    expand: true,
    after: null,
    limit: 10_000,
  });
  assert.ok(!("fresh" in answer), "the journal answers");
  // A rename is its old path removed and its new one created (asDiff); what a diff of stats
  // cannot see (a folder's time moved by what was made in it) is left out of both.
  const seen = (c: NetChange) => c.change !== "modified";
  assert.deepEqual(asDiff(answer.changes).filter(seen), diff(before, after).filter(seen));
}

/** Runs of the property (more when exploring: `JOURNAL_RACE_RUNS=20000`). */
const RUNS = Number(Deno.env.get("JOURNAL_RACE_RUNS") ?? 200);

Deno.test({
  name: "journal races: an install raced by a late watcher, questions and checks is exact",
  ignore: !posix,
  async fn() {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer(),
        fc.integer({ min: 0, max: 3 }),
        (packages, files, seed, deno) => install(packages, files, seed, 8, true, deno),
      ),
      { numRuns: RUNS },
    );
  },
});

/**
 * Counterexamples the property found, each failing before the fix it names: packages,
 * files, seed, changes after the install (fewer than), folders moved across, events as Deno
 * gives them.
 */
const FOUND: [string, number, number, number, number, boolean, number?][] = [
  // `node_modules` not watched yet, a clock reads the staging folder, it is moved, the
  // background check finds `node_modules`' time moved: what was known below the staging
  // folder stayed "created" (seen once in the suite too; root_journal.ts, `#unseen`).
  ["a package moved with no event, found by the background check", 2, 6, -964468213, 0, false],
  // A question read the package in place before the move's event came; the package was
  // removed by then: what the question had found below it stayed (batch.ts, `moved`).
  ["a package read in place before its move's event, then removed", 1, 3, 30, 0, false],
  // A folder removed under the name it had before its move (the runtime's old name for
  // it): what was below it stayed (batch.ts, what is below where the event's path is now).
  ["a folder removed under its old name takes what was below it", 3, 3, -1432133990, 0, false],
  // A folder moved into another, both ends given under a folder's old name: what was
  // below it stayed (batch.ts, each end of a move where it is now).
  ["a folder moved under its old name into another folder", 1, 3, 2027498602, 8, true],
  // A folder moved in with no event for it, then an event for a file two levels inside:
  // the folder between was known to no one, and a later move of the folder above left
  // what was below it (batch.ts, `parentOf`: each folder above thought absent looked at).
  ["a folder moved in with no event of its own, then moved on", 2, 6, 268414082, 8, true],
  // Events as Deno gives them: a question read a folder of a package, which was then moved
  // into place before the journal looked at each name: one gone by then, its name still in
  // the listing kept, was later taken for an entry there before the journal began, and said
  // removed (root_journal.ts, `#learning`).
  ["a package moved while a question's listing was learnt", 3, 8, 1152813744, 8, true, 1],
  // A batch read what was made below `node_modules`, then the package was moved into place
  // before it looked at the folders of the files it had read: those files stayed, under
  // folders the journal never knew (batch.ts, `readAgainBelowGone`; seen in the suite).
  ["a package moved while its batch was read", 1, 5, -440586033, 8, true, 1],
  // Found against drafts of that fix (they pass on the code before it). Moved while the
  // batch looked again at the folders of what it had read: a file was found in its folder,
  // then that folder was found gone with the package (batch.ts, `readAgainBelowGone`:
  // looked at again until nothing is left below a folder found gone).
  ["a package moved while its batch looked again", 1, 8, 0, 8, true, 1],
  // And a folder then found gone that no event named was taken as gone, though what an
  // earlier batch had read below it was still known there: left as it was now, its event
  // still to come (batch.ts, `readAgainBelowGone`).
  ["a folder found gone as its batch looked again, known below", 1, 5, 220554461, 8, true, 1],
];

for (const [name, packages, files, seed, later, across, deno] of FOUND) {
  Deno.test({
    name: `journal races: ${name}`,
    ignore: !posix,
    fn: () => install(packages, files, seed, later, across, deno),
  });
}
