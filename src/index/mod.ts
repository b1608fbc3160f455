/**
 * The live index (contract §18): per root, a watch worker and an index worker that answers
 * the root's scans from memory, kept true by the watch and checked on disk at answer time;
 * a `Scanner` that answers from it where it can and walks where it cannot. Nothing outside
 * this folder knows how it works: the rest of the engine sees a `Scanner`.
 *
 * This folder holds each root's state and life (live_index.ts answers calls, root_keeper.ts
 * keeps each root's watch, fill and workers, root_record.ts, answers.ts), the call gate
 * fills give way to (call_gate.ts), turns on a root's index (scan_turns.ts), the options
 * and the words; its rooms hold the rest, each saying what it may import: `watch/` (the
 * watch and its barrier), `fill/` (how the index is filled), `store/` (compact storage),
 * `cache/` (what is held and how it is kept true), `focus/` (what a focused scan is handed),
 * `answer/` (the index worker).
 *
 * May import: workers, walk, query, security, ports, config.ts, errors.ts, worker_modules.ts.
 *
 * @module
 */
export { Answers } from "./answers.ts";
export { Calls } from "./call_gate.ts";
export { LiveIndex } from "./live_index.ts";
export type { ChangeRecord, JournalAnswer, JournalQuery } from "./journal/mod.ts";
export { newRunId } from "./journal/mod.ts";
export {
  kernelQueueLimit,
  makePrivateFolder,
  type PrivateFolder,
  removePrivateFolder,
} from "./watch/mod.ts";
export type { IndexStatus, LiveIndexOptions } from "./live_index_options.ts";
