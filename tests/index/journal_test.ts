/**
 * The compact journal (contract §24a) against a plain one: random batches of touches on a
 * few paths (made, written, changed, removed, with kinds known or not), with bounds small
 * enough that the oldest batches are dropped and the path table is rebuilt again and
 * again; for every pair of positions the journal still answers, its net changes (path,
 * change, kind, image) are those the full history of each path says. And the cases a
 * random run rarely meets: renames through two hops, a removed folder whose stat the index
 * had forgotten, a memory of a million changes.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { Journal, type Touch } from "../../src/index/journal/journal.ts";
import type { Image } from "../../src/index/journal/image.ts";
import { DIR } from "../../src/index/store/mod.ts";

const FILE = 2;
const img = (mtime: number, kind = FILE, size = 1): Image => ({
  kind,
  size,
  mtime,
  birth: NaN,
  ino: 7,
});

interface Change {
  path: string;
  change: string;
  kind: number | null;
  mtime?: number;
  previousPath?: string;
}

/** Every net change between two positions, in path order, as plain data. */
function between(journal: Journal, since: number, until: number): Change[] {
  return journal.between(since, until, (view) =>
    [...view.changes()].map((c) => ({
      path: c.path,
      change: c.change,
      kind: c.kind,
      ...(c.image === null || c.image === "unknown" ? {} : { mtime: c.image.mtime }),
      ...(c.previousPath === undefined ? {} : { previousPath: c.previousPath }),
    })).sort((a, b) => (a.path < b.path ? -1 : 1)));
}

/** The plain journal: every path's whole history. */
class Plain {
  readonly base = new Map<string, Image | "unknown">();
  readonly kindBefore = new Map<string, number | undefined>();
  readonly steps = new Map<string, { pos: number; image: Image; written: boolean }[]>();

  record(pos: number, touches: Touch[]): void {
    for (const t of touches) {
      if (!this.base.has(t.path)) {
        this.base.set(t.path, t.before);
        this.kindBefore.set(t.path, t.kind);
      }
      const list = this.steps.get(t.path) ?? [];
      list.push({ pos, image: t.after, written: t.written });
      this.steps.set(t.path, list);
    }
  }

  between(since: number, until: number): Change[] {
    const out: Change[] = [];
    for (const [path, list] of this.steps) {
      const inside = list.filter((s) => s.pos > since && s.pos <= until);
      if (inside.length === 0) continue;
      const after = inside.at(-1)!.image;
      const then = list.filter((s) => s.pos <= since).at(-1);
      const before = then ? then.image : this.base.get(path)!;
      const written = inside.some((s) => s.written);
      if (after === null) {
        if (before === null) continue;
        const kind = before === "unknown" ? this.kindBefore.get(path) ?? null : before.kind;
        out.push({
          path,
          change: "removed",
          kind,
          ...(before === "unknown" ? {} : { mtime: before.mtime }),
        });
      } else if (before === null) {
        out.push({ path, change: "created", kind: after.kind, mtime: after.mtime });
      } else if (
        before === "unknown" || written || before.mtime !== after.mtime ||
        before.kind !== after.kind || (before.size !== after.size && !(after.kind & DIR))
      ) {
        out.push({ path, change: "modified", kind: after.kind, mtime: after.mtime });
      }
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : 1));
  }
}

const PATHS = ["a", "b", "a/x", "a/y", "c/d/e", "é", "c/d/f", "a/x/y"].concat(
  [..."ghijklmnopqrstuvw"].map((c, i) => `${["", "a/", "c/d/", "k/"][i % 4]}${c}`),
);
const TOUCH = fc.record({
  path: fc.constantFrom(...PATHS),
  present: fc.boolean(),
  mtime: fc.integer({ min: 0, max: 3 }),
  written: fc.boolean(),
  folder: fc.boolean(),
});

Deno.test("journal: net changes equal a plain journal's, through drops and rebuilds", () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(TOUCH, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 40 }),
      fc.integer({ min: 3, max: 30 }),
      fc.boolean(),
      (batches, maxSteps, unknownFirst) => {
        let now = 0;
        const journal = new Journal({ maxSteps, maxAgeMs: 1e12, now: () => now, compactAt: 1 });
        const plain = new Plain();
        const known = new Map<string, Image>();
        journal.begin(0);
        let start = 0;
        for (const batch of batches) {
          now++;
          const touches: Touch[] = [];
          const seen = new Set<string>();
          for (const t of batch) {
            if (seen.has(t.path)) continue;
            seen.add(t.path);
            const kind = t.folder ? DIR : FILE;
            const after = t.present ? img(t.mtime, kind) : null;
            // What the index knows before: the last image, else (never touched) maybe nothing.
            const before = known.has(t.path) ? known.get(t.path)! : unknownFirst ? "unknown" : null;
            touches.push({
              path: t.path,
              before,
              ...(before === "unknown" ? { kind } : {}),
              after,
              written: t.written,
            });
            known.set(t.path, after);
          }
          journal.record(touches);
          plain.record(journal.position, touches);
          start = journal.start;
          for (let since = Math.max(start, 0); since <= journal.position; since++) {
            assert.deepEqual(
              between(journal, since, journal.position),
              plain.between(since, journal.position),
              `since ${since}, until ${journal.position}`,
            );
          }
        }
        assert.ok(journal.steps <= maxSteps + 5);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("journal: a rename followed through two hops, each source once", () => {
  let now = 0;
  const journal = new Journal({ maxSteps: 100, maxAgeMs: 1e12, now: () => now });
  journal.begin(0);
  now = 1;
  journal.record([{ path: "a", before: img(0), after: null, written: false }, {
    path: "b",
    before: null,
    after: img(0),
    written: false,
    from: "a",
  }]);
  now = 2;
  journal.record([{ path: "b", before: img(0), after: null, written: false }, {
    path: "c",
    before: null,
    after: img(0),
    written: false,
    from: "b",
  }]);
  assert.deepEqual(between(journal, 0, 2), [
    { path: "c", change: "renamed", kind: FILE, mtime: 0, previousPath: "a" },
  ]);
  assert.deepEqual(between(journal, 1, 2), [
    { path: "c", change: "renamed", kind: FILE, mtime: 0, previousPath: "b" },
  ]);
});

Deno.test("journal: a removed folder whose stat was not held is a folder (its kind kept)", () => {
  let now = 0;
  const journal = new Journal({ maxSteps: 100, maxAgeMs: 1e12, now: () => now });
  journal.begin(0);
  now = 1;
  journal.record([
    { path: "pkg", before: "unknown", kind: DIR, after: null, written: false },
    { path: "pkg/lib", before: "unknown", after: null, written: false },
    { path: "pkg/lib/a.js", before: img(0), after: null, written: false },
    { path: "gone", before: "unknown", after: null, written: false },
  ]);
  assert.deepEqual(between(journal, 0, 1), [
    { path: "gone", change: "removed", kind: null },
    { path: "pkg", change: "removed", kind: DIR },
    // Not held, kind not known: a folder, since something was known below it.
    { path: "pkg/lib", change: "removed", kind: DIR },
    { path: "pkg/lib/a.js", change: "removed", kind: FILE, mtime: 0 },
  ]);
});

Deno.test("journal: a million changes in at most 100 bytes each beside their paths", () => {
  let now = 0;
  const journal = new Journal({ maxSteps: 1_000_000, maxAgeMs: 1e12, now: () => now });
  journal.begin(0);
  // 100,000 files in 1,000 folders, each written ten times, 1,000 changes a batch.
  for (let round = 0; round < 10; round++) {
    for (let folder = 0; folder < 100; folder++) {
      now++;
      const touches: Touch[] = [];
      for (let i = 0; i < 1000; i++) {
        const path = `src/module${folder}/part${i % 10}/file${i}.ts`;
        touches.push({
          path,
          before: round === 0 ? null : img(round - 1),
          after: img(round),
          written: true,
        });
      }
      journal.record(touches);
    }
  }
  assert.equal(journal.steps, 1_000_000);
  const perChange = journal.bytes / journal.steps;
  console.log(`${journal.bytes} bytes: ${perChange.toFixed(1)} a change, paths included`);
  assert.ok(perChange <= 100, `${perChange.toFixed(1)} bytes a change`);
  // A recent clock costs its own changes, not the journal's.
  const recent = journal.between(journal.position - 1, journal.position, (v) => [...v.changes()]);
  assert.equal(recent.length, 1000);
  assert.equal(recent[0]!.change, "modified");
});
