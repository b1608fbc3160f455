/**
 * How a root's index answers (contract §18): the index worker and its loop, which answers
 * each scan through the cache, checks the answer's folders on disk before giving it, and
 * keeps the index within its memory budget; and its messages.
 *
 * May import: index/cache, index/fill, index/focus, index/journal, index/watch, walk, workers, query,
 * security, ports.
 *
 * @module
 */
export type {
  CheckedMessage,
  HoldMessage,
  IndexControl,
  IndexReport,
  JournalReply,
} from "./index_messages.ts";
