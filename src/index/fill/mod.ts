/**
 * How a root's index is filled (contract §18, docs/index.md "The fill on two cores"): the
 * fill's request, the fill helper that walks the other share on the second core, the ring
 * and records it writes, and the fed disk the index worker reads them through.
 *
 * May import: index/store, index/cache, index/watch, walk, workers, query, security, ports, config.ts.
 *
 * @module
 */
export { FedFs } from "./fed_fs.ts";
export { startFeed } from "./fill_feed.ts";
export { FILL_ATTEMPTS, FILL_TIMEOUT_MS, fillRequest, refillIn } from "./fill_request.ts";
