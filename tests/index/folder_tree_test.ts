/**
 * The compact folder tree of the live index (contract §18) against a plain model (a map
 * of folder paths to their names, kinds and times), under random listings kept, unlisted
 * and dropped, times recorded, and compactions (the threshold set to 0 or 1 so that they
 * happen all the time): every folder the model knows is found (and knows its path), with
 * its listing, its entries' names, kinds and times, and the counts (entries, heap bytes);
 * every folder it forgot is gone.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { DIR, FILE, SYMLINK } from "../../src/index/store/entry_columns.ts";
import { FolderTree } from "../../src/index/store/folder_tree.ts";
import { entriesOf } from "../../src/index/store/entry_info.ts";
import { namesBytes } from "../../src/index/store/memory_cost.ts";

const ROOT = "/r";
const PATH = fc.array(fc.constantFrom("a", "é"), { maxLength: 2 });
const LISTING = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom("a", "é", "long-folder-name", "🙂"),
    kind: fc.constantFrom(DIR, DIR, FILE, SYMLINK),
  }),
  { selector: (e) => e.name, minLength: 1, maxLength: 4 },
);
const OP = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("keep" as const),
      at: PATH,
      listing: LISTING,
      time: fc.nat(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("unlist" as const), at: PATH }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("drop" as const),
      at: PATH,
      name: fc.constantFrom("a", "é"),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("stat" as const),
      at: PATH,
      pick: fc.nat(),
      time: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("clear" as const) }) },
);

interface ModelFolder {
  listed: boolean;
  time: number;
  /** name -> [kind, time] */
  entries: Map<string, [number, number]>;
}

const abs = (parts: string[]) => [ROOT, ...parts].join("/");

Deno.test("folder tree: what it holds equals a plain model, through compactions", () => {
  fc.assert(
    fc.property(
      fc.array(OP, { minLength: 10, maxLength: 60 }),
      fc.constantFrom(0, 1, 1000),
      (ops, compactAt) => {
        const tree = new FolderTree(ROOT, compactAt);
        /** Folders with a run (listed or kept for below), by path. */
        const model = new Map<string, ModelFolder>();
        /** Folders with a record. */
        const known = new Set<string>([ROOT]);
        const forgetBelow = (p: string) => {
          for (const k of [...known]) if (k === p || k.startsWith(p + "/")) known.delete(k);
          for (const k of [...model.keys()]) if (k === p || k.startsWith(p + "/")) model.delete(k);
        };
        const reachable = (parts: string[]) => {
          for (let i = 0; i < parts.length; i++) {
            const entry = model.get(abs(parts.slice(0, i)))?.entries.get(parts[i]!);
            if (!entry || !(entry[0] & DIR)) return false;
          }
          return true;
        };
        for (const op of ops) {
          if (op.op === "clear") {
            tree.clear();
            model.clear();
            known.clear();
            known.add(ROOT);
          } else if (op.op === "keep") {
            const folder = tree.node(abs(op.at), true);
            assert.equal(folder >= 0, reachable(op.at), `reach ${abs(op.at)}`);
            // Each folder on the way that could be found has a record now.
            for (let i = 0; i <= op.at.length; i++) {
              if (reachable(op.at.slice(0, i))) known.add(abs(op.at.slice(0, i)));
            }
            if (folder < 0) continue;
            const names = op.listing.map((e) => e.name);
            tree.keep(folder, names, op.listing.map((e) => e.kind), op.time);
            const here = abs(op.at);
            for (const k of [...known]) {
              const rest = k.slice(here.length + 1);
              if (!k.startsWith(here + "/") || rest.includes("/")) continue;
              if (!op.listing.some((e) => e.name === rest && e.kind === DIR)) forgetBelow(k);
            }
            // Stats of the same names and kinds are carried over, but not of links.
            const was = model.get(here)?.entries;
            const timeOf = ({ name, kind }: { name: string; kind: number }) => {
              const [oldKind, time] = was?.get(name) ?? [0, NaN];
              return oldKind === kind && kind !== SYMLINK ? time : NaN;
            };
            model.set(here, {
              listed: true,
              time: op.time,
              entries: new Map(op.listing.map((e) => [e.name, [e.kind, timeOf(e)]])),
            });
          } else if (op.op === "unlist") {
            tree.unlist(tree.node(abs(op.at), false));
            const m = model.get(abs(op.at));
            if (m) m.listed = false;
          } else if (op.op === "drop") {
            tree.drop(tree.node(abs(op.at), false), op.name);
            forgetBelow(abs([...op.at, op.name]));
          } else {
            const m = model.get(abs(op.at));
            if (!m || !m.listed || m.entries.size === 0) continue;
            const name = [...m.entries.keys()][op.pick % m.entries.size]!;
            const e = tree.find(tree.node(abs(op.at), false), name);
            tree.columns.mtime[e] = op.time;
            m.entries.get(name)![1] = op.time;
          }
          // What the tree holds, against the model.
          let listedEntries = 0;
          for (const [p, m] of model) {
            const folder = tree.node(p, false);
            assert.ok(folder >= 0, `found ${p}`);
            assert.equal(tree.pathOf(folder), p);
            assert.equal(tree.listed(folder), m.listed, `listed ${p}`);
            if (!m.listed) continue;
            listedEntries += m.entries.size;
            assert.equal(tree.stamp(folder).time, m.time);
            const held = Array.from(entriesOf(tree, folder), (e) => e.name);
            assert.deepEqual(held, [...m.entries.keys()].sort());
            for (const [name, [kind, time]] of m.entries) {
              const e = tree.find(folder, name);
              assert.equal(tree.columns.kind[e], kind);
              assert.ok(Object.is(tree.columns.mtime[e], time), `time of ${p}/${name}`);
            }
          }
          assert.equal(tree.entries, listedEntries);
          const bytes = [...model.values()].reduce(
            (sum, m) => sum + namesBytes([...m.entries.keys()]),
            0,
          );
          assert.equal(tree.bytes, bytes);
          for (const p of ["a", "é", "a/a", "a/é", "é/a", "a/a/a"].map((q) => `${ROOT}/${q}`)) {
            if (!known.has(p)) assert.equal(tree.node(p, false), -1, `gone ${p}`);
          }
        }
      },
    ),
    { numRuns: 1000 },
  );
});
