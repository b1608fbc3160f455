/**
 * What changed since (contract §24): the `fs.changes_since` use case, its arguments and
 * cursors, its clocks, its words, and a fresh instance's answer from times.
 *
 * May import: index, search, paging, walk, query, query/calls, query/arguments, security, ports,
 * config.ts, errors.ts, presentation.ts.
 *
 * @module
 */
export { type ChangesDeps, changesSince, type Journals } from "./changes_since.ts";
export type { ChangeOutput, ChangesOutput, ChangesResult } from "./changes_output.ts";
export { changesSaid, type ChangesStructured, changesStructured } from "./changes_words.ts";
export { rootClock } from "./clock.ts";
/** A new run's id; it names the run keeping a journal, which is the index's. */
export { newRunId } from "../index/mod.ts";
