/**
 * fast-check arbitraries shared by the property tests: random trees and queries.
 *
 * @module
 */
import fc from "npm:fast-check@4.10.2";
import { DAY, T0, type TreeSpec } from "./tree.ts";

/** Names chosen so that '-', '.', ' ' and upper case sort around '/' and each other. */
export const NAME = fc.constantFrom("a", "b", "a-b", "a.b", "B", "é", "a b", "_");

/** How a tree's times are drawn: `slots` steps of `unit` ms after T0 (default: four days). */
export interface TreeTimes {
  slots: number;
  unit: number;
}

const FOUR_DAYS: TreeTimes = { slots: 4, unit: DAY };

/**
 * A random tree of up to `paths` file paths (at least `minPaths`) of `minDepth`-`maxDepth`
 * segments named from `names`, each file and folder at one of the `times`.
 */
export function tree(
  minDepth: number,
  maxDepth: number,
  paths: number,
  { names = NAME as fc.Arbitrary<string>, times = FOUR_DAYS, minPaths = 0 }: {
    names?: fc.Arbitrary<string>;
    times?: TreeTimes;
    minPaths?: number;
  } = {},
) {
  return fc.uniqueArray(
    fc.record({
      segments: fc.array(names, { minLength: minDepth, maxLength: maxDepth }),
      slot: fc.integer({ min: 0, max: times.slots - 1 }),
    }),
    { minLength: minPaths, maxLength: paths, selector: (e) => e.segments.join("/") },
  ).map((entries) => toSpec(entries, times));
}

/** A random tree: a list of file paths (1-3 segments) with one of four mtimes. */
export const TREE = tree(1, 3, 25);

/**
 * A tree of many small folders (paths of 3-5 segments): below the listings every share
 * reads (shares.ts), its subtrees are each walked by one share of a split scan.
 */
export const SMALL_FOLDERS = tree(3, 5, 40);

function toSpec(entries: { segments: string[]; slot: number }[], times: TreeTimes): TreeSpec {
  const spec: TreeSpec = {};
  const dirs = new Set<string>();
  for (const { segments } of entries) {
    for (let i = 1; i < segments.length; i++) dirs.add(segments.slice(0, i).join("/"));
  }
  for (const { segments, slot } of entries) {
    const p = segments.join("/");
    if (!dirs.has(p)) spec[p] = { mtime: T0 + slot * times.unit };
  }
  let i = 0;
  for (const d of dirs) spec[d] = { kind: "dir", mtime: T0 + (i++ % times.slots) * times.unit };
  return spec;
}

/** A query whose page size and scan limits are at most these. */
function query(limit: number, maxFiles: number, maxDirectories: number) {
  return fc.record({
    sort: fc.constantFrom("time_desc", "time_asc", "path_asc"),
    limit: fc.integer({ min: 1, max: limit }),
    includeDirectories: fc.boolean(),
    maxFiles: fc.option(fc.integer({ min: 1, max: maxFiles }), { nil: undefined }),
    maxDirectories: fc.option(fc.integer({ min: 1, max: maxDirectories }), { nil: undefined }),
    from: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  });
}

export const QUERY = query(6, 8, 4);

/** A query over {@linkcode SMALL_FOLDERS}, with limits that stop its walk anywhere in it. */
export const QUERY_DEEP = query(8, 40, 40);

/** The environment that sets a query's scan limits, where it has them. */
export function limitsEnv(
  q: { maxFiles?: number; maxDirectories?: number },
): Record<string, string> {
  const env: Record<string, string> = {};
  if (q.maxFiles !== undefined) env.MAX_FILES_SCANNED = String(q.maxFiles);
  if (q.maxDirectories !== undefined) env.MAX_DIRECTORIES_SCANNED = String(q.maxDirectories);
  return env;
}
