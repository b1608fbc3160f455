/**
 * What the live index caches below each folder (contract §18; subtree_times.ts): under
 * random listings, relistings, unlistings, drops, stats read and forgotten, and bounds
 * asked for in between (so that stale ones would be served), every folder's cached time
 * bounds and counts equal those made afresh from what the tree holds.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { DIR, FILE } from "../../src/index/store/entry_columns.ts";
import { FolderTree } from "../../src/index/store/folder_tree.ts";
import { recordInfo } from "../../src/index/store/entry_info.ts";
import { boundBelow } from "../../src/index/store/subtree_times.ts";

const ROOT = "/r";
const NAME = fc.constantFrom("a", "b");
const AT = fc.array(NAME, { maxLength: 3 });
const OP = fc.oneof(
  fc.record({
    op: fc.constant("keep" as const),
    at: AT,
    listing: fc.uniqueArray(fc.record({ name: NAME, dir: fc.boolean() }), {
      selector: (e) => e.name,
      maxLength: 3,
    }),
  }),
  fc.record({ op: fc.constant("unlist" as const), at: AT }),
  fc.record({ op: fc.constant("drop" as const), at: AT, name: NAME }),
  fc.record({
    op: fc.constant("stat" as const),
    at: AT,
    name: NAME,
    // null: forgotten; birth 0: the system gives none
    time: fc.option(fc.record({ mtime: fc.nat(100), birth: fc.constantFrom(0, 5, 50) })),
  }),
  fc.record({ op: fc.constant("ask" as const), at: AT }),
  fc.record({ op: fc.constant("ask" as const), at: AT }),
);

interface Below {
  mtime: [number, number];
  birth: [number, number];
  /** The files' alone (no folder's own time). */
  fileMtime: [number, number];
  fileBirth: [number, number];
  files: number;
  listings: number;
}

/** What is below `folder`, made afresh from the runs the tree holds. */
function fresh(tree: FolderTree, folder: number): Below {
  if (!tree.listed(folder)) {
    const none: [number, number] = [NaN, NaN];
    return {
      mtime: none,
      birth: [...none],
      fileMtime: [...none],
      fileBirth: [...none],
      files: 0,
      listings: 0,
    };
  }
  const below: Below = {
    mtime: [Infinity, -Infinity],
    birth: [Infinity, -Infinity],
    fileMtime: [Infinity, -Infinity],
    fileBirth: [Infinity, -Infinity],
    files: 0,
    listings: 1,
  };
  const widen = (b: [number, number], lo: number, hi: number) => {
    b[0] = Math.min(b[0], lo);
    b[1] = Math.max(b[1], hi);
  };
  const cols = tree.columns;
  const { first, count } = tree.run(folder);
  for (let e = first; e < first + count; e++) {
    const m = cols.mtime[e]!;
    const b = Number.isNaN(m) || cols.birth[e] === 0 ? NaN : cols.birth[e]!;
    widen(below.mtime, m, m);
    widen(below.birth, b, b);
    if (!(cols.kind[e]! & DIR)) {
      below.files++;
      widen(below.fileMtime, m, m);
      widen(below.fileBirth, b, b);
    } else if (cols.sub[e]! < 0) {
      for (const bound of [below.mtime, below.birth, below.fileMtime, below.fileBirth]) {
        widen(bound, NaN, NaN);
      }
    } else {
      const sub = fresh(tree, cols.sub[e]!);
      widen(below.mtime, ...sub.mtime);
      widen(below.birth, ...sub.birth);
      widen(below.fileMtime, ...sub.fileMtime);
      widen(below.fileBirth, ...sub.fileBirth);
      below.files += sub.files;
      below.listings += sub.listings;
    }
  }
  return below;
}

function cached(tree: FolderTree, folder: number): Below {
  boundBelow(tree, folder);
  const r = tree.folders;
  return {
    mtime: [r.mtimeLo[folder]!, r.mtimeHi[folder]!],
    birth: [r.birthLo[folder]!, r.birthHi[folder]!],
    fileMtime: [r.fileMtimeLo[folder]!, r.fileMtimeHi[folder]!],
    fileBirth: [r.fileBirthLo[folder]!, r.fileBirthHi[folder]!],
    files: r.files[folder]!,
    listings: r.listings[folder]!,
  };
}

Deno.test("subtree times: cached bounds and counts equal fresh ones after any change", () => {
  fc.assert(
    fc.property(
      fc.array(OP, { minLength: 5, maxLength: 80 }),
      fc.constantFrom(0, 1000),
      (ops, compactAt) => {
        const tree = new FolderTree(ROOT, compactAt);
        const path = (at: string[]) => [ROOT, ...at].join("/");
        for (const op of ops) {
          if (op.op === "keep") {
            const folder = tree.node(path(op.at), true);
            if (folder < 0) continue;
            const names = op.listing.map((e) => e.name);
            tree.keep(folder, names, op.listing.map((e) => (e.dir ? DIR : FILE)), 0);
          } else if (op.op === "unlist") {
            tree.unlist(tree.node(path(op.at), false));
          } else if (op.op === "drop") {
            tree.drop(tree.node(path(op.at), false), op.name);
          } else if (op.op === "stat") {
            const folder = tree.node(path(op.at), false);
            const e = tree.listed(folder) ? tree.find(folder, op.name) : -1;
            if (e < 0) continue;
            const isDirectory = (tree.columns.kind[e]! & DIR) !== 0;
            const info = op.time && {
              isFile: !isDirectory,
              isDirectory,
              isSymlink: false,
              size: 1,
              mtime: new Date(op.time.mtime),
              birthtime: op.time.birth === 0 ? null : new Date(op.time.birth),
            } as Deno.FileInfo;
            recordInfo(tree, folder, e, info);
          } else {
            // Asked for one part of the tree: the rest stays cached as it was.
            const folder = tree.node(path(op.at), false);
            if (folder < 0) continue;
            assert.deepEqual(cached(tree, folder), fresh(tree, folder), tree.pathOf(folder));
          }
        }
        // In the end, every folder with a record: its cached bounds are fresh ones.
        const stack = [0];
        while (stack.length > 0) {
          const folder = stack.pop()!;
          assert.deepEqual(cached(tree, folder), fresh(tree, folder), tree.pathOf(folder));
          if (!tree.listed(folder)) continue;
          const { first, count } = tree.run(folder);
          for (let e = first; e < first + count; e++) {
            if (tree.columns.sub[e]! >= 0) stack.push(tree.columns.sub[e]!);
          }
        }
      },
    ),
    { numRuns: 10_000 },
  );
});
