/**
 * The live index (contract §18): per root, a watch worker and an index worker that answers
 * the root's scans from memory, kept true by the watch and checked on disk at answer time;
 * a `Scanner` that answers from it where it can and walks where it cannot. Nothing outside
 * this folder knows how it works: the rest of the engine sees a `Scanner`.
 *
 * May import: workers, walk, query, security, ports, config.ts, errors.ts, worker_modules.ts.
 *
 * @module
 */
export { LiveIndex } from "./live_index.ts";
export { kernelQueueLimit } from "./cookies.ts";
export { makePrivateFolder, type PrivateFolder, removePrivateFolder } from "./private_folder.ts";
export type { IndexStatus, LiveIndexOptions } from "./live_index_options.ts";
