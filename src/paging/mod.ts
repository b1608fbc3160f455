/**
 * Paging: what a page holds and where the next one starts (contract §10, §11, §16), from a
 * scan or from a snapshot an earlier scan of the same paging sequence kept.
 *
 * May import: workers, walk, query, ports, errors.ts.
 *
 * @module
 */
export { type Page, type PageOptions, Pager, type PagerOptions, type PageStats } from "./paging.ts";
export { SnapshotScanner } from "./snapshot_scanner.ts";
