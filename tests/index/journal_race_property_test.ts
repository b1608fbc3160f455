/**
 * A root's journal against a diff of the disk (contract §24), with the runtime's watcher as
 * a model that can be late in every way it is on a busy machine: an install unpacks
 * packages into staging folders and moves each into place while the events come in
 * batches cut anywhere, a new folder is watched only some time after its event (by the
 * name it had then: gone, if it was moved meanwhile), a folder moved keeps reporting under
 * its old name until the runtime watches it again, a move's two ends come apart; and
 * between any two of those, a question reads the tree through the held tree, a clock is
 * given, the background checks look at folders' times and entries' stats, the watcher is
 * found caught up. Whatever the order, the net changes since the journal began are the
 * disk's, also after an `rm -rf` of a package, whose events come as each entry goes. Each
 * choice is drawn from a seed fast-check picks (and reports).
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { TreeCache } from "../../src/index/cache/tree_cache.ts";
import { fillRequest } from "../../src/index/fill/fill_request.ts";
import { RootJournal } from "../../src/index/journal/root_journal.ts";
import type { Change } from "../../src/index/watch/mod.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs } from "../../src/ports/fs.ts";
import { strictGuard } from "../../src/security/guard.ts";
import { scan } from "../../src/walk/scan.ts";
import { diff, snapshot } from "../helpers/snapshot.ts";
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

  constructor(root: string) {
    this.named.set(root, root);
  }

  /** An entry made or written at `abs`: an event if its folder is watched. */
  event(kind: Change["kind"], abs: string, folder = false): void {
    const name = this.#nameOf(abs);
    if (name === undefined) return;
    this.events.push({ kind, paths: [name] });
    if (folder && kind === "create") this.#owe(name);
  }

  /** A folder moved from `from` to `to` in the same folder; its two ends may come apart. */
  moved(from: string, to: string, apart: boolean): void {
    for (const [path, name] of [...this.named]) {
      if (path !== from && !path.startsWith(from + "/")) continue;
      this.named.delete(path);
      this.named.set(to + path.slice(from.length), name); // still reports the old name
    }
    const [a, b] = [this.#nameOf(from), this.#nameOf(to)];
    if (a === undefined || b === undefined) return;
    if (apart) this.events.push({ kind: "rename", paths: [a] }, { kind: "rename", paths: [b] });
    else this.events.push({ kind: "rename", paths: [a, b] });
    this.#owe(to); // watched again under its new name
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

/** One install of `packages` packages of `files` files, raced by the draws of `seed`. */
async function install(packages: number, files: number, seed: number) {
  const draw = draws(seed);
  await using tree = await makeTree({ "package.json": { mtime: T0 } });
  const root = { path: tree.root, realPath: tree.root };
  const cache = new TreeCache({ base: denoFs, rootReal: tree.root, maxEntries: 10_000 });
  cache.record(true);
  const question = () =>
    scan(fillRequest(root, 10_000), { fs: cache, clock: systemClock, guard: strictGuard });
  await question(); // the fill
  const watcher = new WatcherModel(tree.root);
  const bounds = { maxSteps: 100_000, maxAgeMs: 1e12 };
  const journal = new RootJournal(cache, denoFs, bounds, Date.now, () => watcher.behind);
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
        const batch = watcher.events.splice(0, Math.floor(draw() * (watcher.events.length + 1)));
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
    Deno.renameSync(staging, `${modules}/pkg${p}`);
    watcher.moved(staging, `${modules}/pkg${p}`, draw() < 0.5);
    await meanwhile();
    if (draw() < 0.35) await removed(`${modules}/pkg${Math.floor(draw() * (p + 1))}`);
  }
  const after = snapshot(tree.root);
  // Every event comes, every folder is watched in the end.
  while (watcher.events.length + watcher.owed.length + watcher.caught.length > 0) {
    if (watcher.events.length > 0) journal.apply(watcher.events.splice(0));
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
  // A rename is its old path removed and its new one created; what a diff of stats cannot
  // see (a folder's time moved by what was made in it) is left out of both.
  const got = answer.changes.flatMap((c) =>
    c.change === "renamed"
      ? [{ path: c.path, change: "created" }, { path: c.previousPath!, change: "removed" }]
      : [{ path: c.path, change: c.change }]
  ).filter((c) => c.change !== "modified").sort((a, b) => (a.path < b.path ? -1 : 1));
  assert.deepEqual(got, diff(before, after).filter((c) => c.change !== "modified"));
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
        install,
      ),
      { numRuns: RUNS },
    );
  },
});

/** Counterexamples the property found, each failing before the fix it names. */
const FOUND: [string, number, number, number][] = [
  // `node_modules` not watched yet, a clock reads the staging folder, it is moved, the
  // background check finds `node_modules`' time moved: what was known below the staging
  // folder stayed "created" (seen once in the suite too; root_journal.ts, `#unseen`).
  ["a package moved with no event, found by the background check", 2, 6, -964468213],
  // A question read the package in place before the move's event came; the package was
  // removed by then: what the question had found below it stayed (batch.ts, `moved`).
  ["a package read in place before its move's event, then removed", 1, 3, 30],
  // A folder removed under the name it had before its move (the runtime's old name for
  // it): what was below it stayed (batch.ts, what is below where the event's path is now).
  ["a folder removed under its old name takes what was below it", 3, 3, -1432133990],
];

for (const [name, packages, files, seed] of FOUND) {
  Deno.test({
    name: `journal races: ${name}`,
    ignore: !posix,
    fn: () => install(packages, files, seed),
  });
}
