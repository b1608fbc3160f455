/**
 * The three result orders with their tie-breakers (contract §10).
 *
 * Paths compare as plain JavaScript strings (UTF-16 code units). Unknown times
 * (`null`) come after every known time in both time orders.
 *
 * @module
 */
import type { Sort, SortKey } from "./request.ts";

/** Compares two keys: negative if `a` comes first. */
export type KeyOrder = (a: SortKey, b: SortKey) => number;

/** Plain code-unit comparison of two paths. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareTimes(a: number | null, b: number | null, descending: boolean): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return descending ? b - a : a - b;
}

const ORDERS: Record<Sort, KeyOrder> = {
  time_desc: (a, b) => compareTimes(a.time, b.time, true) || comparePaths(a.path, b.path),
  time_asc: (a, b) => compareTimes(a.time, b.time, false) || comparePaths(a.path, b.path),
  // Paths are unique within one result set, so the time tie-breaker never decides.
  path_asc: (a, b) => comparePaths(a.path, b.path) || compareTimes(a.time, b.time, false),
};

/**
 * The comparator of a sort order.
 *
 * @example
 * ```ts
 * const items = [{ time: 1, path: "b" }, { time: 2, path: "a" }, { time: 2, path: "c" }];
 * items.sort(keyOrder("time_desc")); // a(2), c(2), b(1)
 * ```
 */
export function keyOrder(sort: Sort): KeyOrder {
  return ORDERS[sort];
}

/**
 * The order of a search over every root (contract §26): the sort's, with ties (the same time
 * in a time order, the same path in path order) broken by root order, then path.
 */
export function rootsOrder(sort: Sort): (a: RootKey, b: RootKey) => number {
  if (sort === "path_asc") return (a, b) => comparePaths(a.path, b.path) || a.root - b.root;
  const descending = sort === "time_desc";
  return (a, b) =>
    compareTimes(a.time, b.time, descending) || a.root - b.root || comparePaths(a.path, b.path);
}

/** A key with the place of its root among the server's roots. */
export type RootKey = SortKey & { root: number };

/**
 * Whether `sort` is the walk's own order (path order, contract §11): then the walk
 * yields matches already in order, can stop once a page is full, and a cursor's key is
 * also a walk position.
 */
export function isWalkOrder(sort: Sort): boolean {
  return sort === "path_asc";
}
