/**
 * Each root's journal of changes (contract §24): what the index applied, batch by batch,
 * as images of the entries touched, so that the net change between two positions is
 * exact; made from each batch of events in the index worker, asked by `fs.changes_since`.
 *
 * May import: index/cache, index/store, index/watch, walk, query, security, ports.
 *
 * @module
 */
export { type JournalBounds, newRunId, RootJournal } from "./root_journal.ts";
export {
  askJournal,
  type ChangeRecord,
  type JournalAnswer,
  type JournalQuery,
} from "./journal_query.ts";
