/**
 * A root's files in time order (src/index/focus/time_order.ts) against a plain count over
 * the tree as it is: under random listings kept, unlisted and dropped, stats recorded and
 * forgotten, the tree cleared, and compactions (threshold 0 or 1), with windows asked
 * between the changes (so that one snapshot carries many changes), every count equals the
 * files, the folders by their own times, or both (as asked) inside the window in listings at most
 * `maxDepth` deep from the root or a folder below it, those inside version-control folders apart, and is `null` exactly when
 * something below the root is not known; of modification times or of birth times (a file
 * with none, or 0, is never inside a created window: contract §7). The radix sort is
 * checked against a comparison sort, whole milliseconds and not.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { DIR, FILE, SYMLINK } from "../../src/index/store/entry_columns.ts";
import { FolderTree } from "../../src/index/store/folder_tree.ts";
import { recordInfo, reusedInfo } from "../../src/index/store/entry_info.ts";
import { windowCount } from "../../src/index/focus/time_order.ts";
import type { OrderWindow } from "../../src/index/focus/order_window.ts";
import { SCOPE_SHARE } from "../../src/index/focus/order_scope.ts";
import { sortByTime } from "../../src/index/store/time_sort.ts";
import { VCS_FOLDERS } from "../../src/walk/mod.ts";

const ROOT = "/r";
const NAMES = ["a", ".git", "b", "é"];
const PATH = fc.array(fc.constantFrom(...NAMES), { maxLength: 3 });
const LISTING = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom(...NAMES, "f", "g"),
    kind: fc.constantFrom(DIR, DIR, FILE, FILE, SYMLINK),
  }),
  { selector: (e) => e.name, minLength: 0, maxLength: 5 },
);
/** What matches: files, folders (a folders-only question) or both. */
const KINDS = [
  { files: true, folders: false },
  { files: false, folders: true },
  { files: true, folders: true },
];
const WINDOW = fc.record({
  created: fc.boolean(),
  kinds: fc.constantFrom(...KINDS),
  /** A folder below the root to start from (top ones most often: they hold the most). */
  start: fc.option(fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 2 }), {
    nil: undefined,
  }),
  /** Whether the walk visits its start below the root itself (a recursive one). */
  visitsStart: fc.boolean(),
  from: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
  to: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
  maxDepth: fc.integer({ min: 1, max: 5 }),
  vcsLeftOut: fc.boolean(),
});
const OP = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ op: fc.constant("keep" as const), at: PATH, listing: LISTING }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("unlist" as const), at: PATH }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("drop" as const),
      at: PATH,
      name: fc.constantFrom(...NAMES),
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant("stat" as const),
      at: PATH,
      pick: fc.nat(),
      time: fc.option(fc.integer({ min: 0, max: 10 }), { nil: null }),
      /** 0: none (contract §7). */
      birth: fc.integer({ min: 0, max: 10 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("clear" as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("fill" as const), seed: fc.nat(10) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("ask" as const), window: WINDOW }) },
);

const abs = (parts: string[]) => [ROOT, ...parts].join("/");

/**
 * Makes everything below `folder` known, as a build does: a folder never looked into is
 * listed (a file and, above depth 3, a folder), and each entry not stat'ed gets a time.
 */
function fill(tree: FolderTree, path: string, folder: number, seed: number, time: () => number) {
  if (!tree.listed(folder)) {
    const deep = path.split("/").length > 3;
    tree.keep(folder, deep ? ["f"] : ["f", "a"], deep ? [FILE] : [FILE, DIR], time());
  }
  const { first, count } = tree.run(folder);
  for (let e = first; e < first + count; e++) {
    const cols = tree.columns;
    if (Number.isNaN(cols.mtime[e]!)) {
      const t = (e + seed) % 11;
      const birth = (e * 7 + seed) % 5 === 0 ? NaN : (e * 3 + seed) % 11;
      recordInfo(tree, folder, e, reusedInfo(cols.kind[e]!, 1, t, birth));
    }
    if (!(tree.columns.kind[e]! & DIR)) continue;
    const below = `${path}/${tree.nameOf(folder, e)}`;
    fill(tree, below, tree.node(ROOT + below, true), seed, time);
  }
}

/**
 * The count of a walk over the tree as it is from `w`'s start, or `null` when something
 * below the root is not known (a folder's own time only when folders are asked for), or the
 * start is not a folder held, lies inside a version-control folder (or is one), or holds
 * less than `SCOPE_SHARE` of the root's files and listings.
 */
function plainCount(tree: FolderTree, w: OrderWindow): { matches: number; vcs: number } | null {
  const whole = plainFrom(tree, w, 0);
  if (w.startAbs === ROOT || whole === null) return whole?.out ?? null;
  const start = tree.node(w.startAbs, false);
  const parts = w.startAbs.slice(ROOT.length + 1).split("/");
  if (start < 0 || parts.some((p) => VCS_FOLDERS.includes(p))) return null;
  const part = plainFrom(tree, w, start);
  if (!part || part.size < SCOPE_SHARE * whole.size) return null;
  if (w.folders && w.visitsStart) { // the start itself, by its time in its parent's listing
    const { first, count } = tree.run(tree.folders.parent[start]!);
    for (let e = first; e < first + count; e++) {
      const t = w.created ? tree.columns.birth[e]! : tree.columns.mtime[e]!;
      if (tree.columns.sub[e] === start && t >= w.from && t < w.to) part.out.matches++;
    }
  }
  return part.out;
}

/**
 * The count of a walk from record `start`, and how many files and listings lie at or below
 * it; `null` when something below is not known.
 */
function plainFrom(tree: FolderTree, w: OrderWindow, start: number) {
  const out = { matches: 0, vcs: 0 };
  let size = 0;
  const cols = tree.columns;
  const visit = (folder: number, depth: number, vcs: boolean): boolean => {
    if (!tree.listed(folder)) return false;
    const { first, count } = tree.run(folder);
    size++;
    for (let e = first; e < first + count; e++) {
      const t = cols.mtime[e]!;
      if (!(cols.kind[e]! & DIR)) size++;
      const time = w.created ? cols.birth[e]! : t; // no birth time (NaN): never inside
      if (cols.kind[e]! & DIR) { // its own time asked for only when folders match too
        if (w.folders && Number.isNaN(t)) return false;
        if (w.folders && depth <= w.maxDepth && time >= w.from && time < w.to) {
          if (vcs && w.vcsLeftOut) out.vcs++;
          else out.matches++;
        }
        const sub = cols.sub[e]!;
        if (sub < 0) return false;
        if (!visit(sub, depth + 1, vcs || VCS_FOLDERS.includes(tree.nameOf(folder, e)))) {
          return false;
        }
      } else if (Number.isNaN(t)) return false;
      else if (w.files && depth <= w.maxDepth && time >= w.from && time < w.to) {
        if (vcs && w.vcsLeftOut) out.vcs++;
        else out.matches++;
      }
    }
    return true;
  };
  return visit(start, 1, false) ? { out, size } : null;
}

Deno.test("time order: every window's count equals a plain count, through changes and compactions", () => {
  let counted = 0;
  fc.assert(
    fc.property(
      fc.array(OP, { minLength: 10, maxLength: 80 }),
      fc.constantFrom(0, 1, 1000),
      (ops, compactAt) => {
        const tree = new FolderTree(ROOT, compactAt);
        let listed = 0;
        const ask = (w: OrderWindow) => {
          const got = windowCount(tree, w);
          assert.deepEqual(got, plainCount(tree, w), JSON.stringify(w));
          if (got !== null && got.matches + got.vcs > 0) counted++;
        };
        for (const op of ops) {
          if (op.op === "clear") tree.clear();
          else if (op.op === "fill") {
            fill(tree, "", 0, op.seed, () => listed++);
            // Every file, nothing changed since the snapshot (made by the first, if need be),
            // from the root and from each folder in it (every listing reached, or not all).
            const { first, count } = tree.run(0);
            const tops = [ROOT];
            for (let e = first; e < first + count; e++) {
              if (tree.columns.kind[e]! & DIR) tops.push(abs([tree.nameOf(0, e)]));
            }
            for (const startAbs of tops) {
              for (const maxDepth of startAbs === ROOT ? [9] : [9, 1]) {
                for (const vcsLeftOut of [true, false]) {
                  for (const created of [true, false]) {
                    for (const kinds of KINDS) {
                      const every = { from: -Infinity, to: Infinity, maxDepth, vcsLeftOut };
                      ask({
                        created,
                        ...kinds,
                        startAbs,
                        visitsStart: startAbs !== ROOT,
                        ...every,
                      });
                    }
                  }
                }
              }
            }
          } else if (op.op === "keep") {
            const folder = tree.node(abs(op.at), true);
            if (folder < 0) continue;
            tree.keep(
              folder,
              op.listing.map((e) => e.name),
              op.listing.map((e) => e.kind),
              listed++,
            );
          } else if (op.op === "unlist") tree.unlist(tree.node(abs(op.at), false));
          else if (op.op === "drop") tree.drop(tree.node(abs(op.at), false), op.name);
          else if (op.op === "stat") {
            const folder = tree.node(abs(op.at), false);
            if (!tree.listed(folder)) continue;
            const { first, count } = tree.run(folder);
            if (count === 0) continue;
            const e = first + op.pick % count;
            const kind = tree.columns.kind[e]!;
            const birth = op.birth === 0 ? NaN : op.birth;
            const info = op.time === null ? null : reusedInfo(kind, 1, op.time, birth);
            recordInfo(tree, folder, e, info);
          } else {
            const { start, kinds, ...window } = op.window;
            const w = {
              ...window,
              ...kinds,
              startAbs: start === undefined ? ROOT : abs(start),
              from: op.window.from ?? -Infinity,
              to: op.window.to ?? Infinity,
            };
            ask(w);
          }
        }
      },
    ),
    { numRuns: 400 },
  );
  assert.ok(counted > 100, `only ${counted} windows held a match: the test shows little`);
});

Deno.test("time order: the radix sort orders as a comparison sort does, carrying each owner", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.array(fc.integer({ min: -1e13, max: 2e13 }), { maxLength: 300 }),
        fc.array(fc.integer({ min: 0, max: 70_000 }), { maxLength: 300 }),
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }), {
          maxLength: 300,
        }),
      ),
      (values) => {
        const times = Float64Array.from(values);
        const owners = Int32Array.from(values, (_, i) => i);
        const [sorted, carried] = sortByTime(times, owners);
        const expected = [...values].sort((a, b) => a - b);
        assert.deepEqual([...sorted], expected);
        assert.deepEqual([...carried].map((i) => values[i]), expected);
        assert.equal(new Set(carried).size, values.length);
      },
    ),
    { numRuns: 300 },
  );
});
