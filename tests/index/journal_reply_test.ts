/**
 * src/index/journal_reply.ts: a question to an index worker's journal that is ended while it
 * waits (its root's watch set up again, the index dropped) is answered at once, not after the
 * reply's deadline (it waited 10 s and said "its journal did not answer in time").
 */
import assert from "node:assert/strict";
import { journalReply } from "../../src/index/journal_reply.ts";
import type { JournalQuery } from "../../src/index/journal/mod.ts";
import { sanitize } from "../helpers/sanitize.ts";

/** A worker that never answers. */
const silent = () =>
  new Worker(`data:application/javascript,${encodeURIComponent("self.onmessage = () => {};")}`, {
    type: "module",
  });

const QUERY = {} as JournalQuery; // never read: the worker does not answer

Deno.test({
  name: "journal reply: a worker ended while its question waits gives no answer, at once",
  ...sanitize,
  async fn() {
    const worker = silent();
    const ended = new AbortController();
    try {
      // A deadline far past the test's own: only the end can answer it.
      const reply = journalReply(worker, QUERY, 3_600_000, ended.signal);
      ended.abort();
      assert.equal(await reply, null);
      // Ended before it is asked: the same.
      assert.equal(await journalReply(worker, QUERY, 3_600_000, ended.signal), null);
    } finally {
      worker.terminate();
    }
  },
});
