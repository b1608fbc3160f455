/**
 * One question to a root's index worker's journal, and its reply (contract §24), asked
 * while the root's turn is held (no scan runs on the worker, so its messages are free).
 *
 * @module
 */
import type { IndexControl, JournalReply } from "./answer/mod.ts";
import type { JournalQuery } from "./journal/mod.ts";

/** How long the journal is given to answer before the call answers from times. */
export const JOURNAL_REPLY_MS = 10_000;

let nextId = 1;

/**
 * Asks `worker`'s journal `query`; `null` if it does not answer within `ms`, or the worker
 * is ended first (`ended`).
 */
export function journalReply(
  worker: Worker,
  query: JournalQuery,
  ms: number,
  ended?: AbortSignal,
): Promise<JournalReply | null> {
  const id = nextId++;
  return new Promise((resolve) => {
    const done = (reply: JournalReply | null) => {
      clearTimeout(timer);
      ended?.removeEventListener("abort", gone);
      worker.onmessage = null;
      resolve(reply);
    };
    const gone = () => done(null);
    const timer = setTimeout(gone, ms);
    if (ended?.aborted) return gone();
    ended?.addEventListener("abort", gone);
    worker.onmessage = (event: MessageEvent<JournalReply>) => {
      if (event.data?.type === "since" && event.data.id === id) done(event.data);
    };
    worker.postMessage({ type: "since", id, query } satisfies IndexControl);
  });
}
