/**
 * What a changes call's summary line says, and the same as fields (contract §4, §24): the
 * count of each kind of change since the time (in the server's zone), a fresh instance's
 * reason and what it cannot say, more pages, a cut scan; then the server's time.
 *
 * @module
 */
import { lineOf, type Note, type ServerClock, serverClock } from "../presentation.ts";
import { localTime, serverTimeZone } from "../query/mod.ts";
import type { ChangeOutput, ChangesOutput, ChangesResult } from "./changes_since.ts";

/** The words of a changes call: its line, its notes, and the server's time. */
export interface ChangesWords extends ServerClock {
  summary: string;
  notes: Note[];
}

/** `structuredContent` of a changes call: the words first, then the output. */
export type ChangesStructured = ChangesOutput & ChangesWords;

const KINDS = ["created", "modified", "renamed", "removed"] as const;

/** The line and its notes. */
export function changesWords(result: ChangesResult, now: number): ChangesWords {
  const { output } = result;
  const zone = serverTimeZone();
  const since = localTime(Date.parse(output.since), zone, "second");
  const when = `since ${since.time} local time (${zone}, UTC${since.offset})`;
  const counts = output.stats.counts ?? countsOf(output.changes);
  const kinds = KINDS.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`).join(", ");
  const total = output.stats.totalChanges;
  const count = output.freshInstance
    ? `${output.changes.length} ${
      output.changes.length === 1 ? "entry" : "entries"
    } modified or created ${when} on this page${kinds ? `: ${kinds}` : ""}.`
    : total === 0
    ? `No changes ${when}.`
    : `${total} ${total === 1 ? "change" : "changes"} ${when}: ${kinds}.`;
  const notes: Note[] = [];
  if (output.freshInstance) {
    notes.push({
      code: "FreshInstance",
      message:
        `Fresh start: removals and renames cannot be known (${output.reason}); listed is every entry whose modified or created time is at or after then.`,
    });
  }
  if (output.stats.truncated) {
    notes.push({
      code: "Truncated",
      message: "The scan stopped at a server limit: this page covers only part of the tree.",
    });
  }
  if (output.nextCursor !== null) {
    notes.push({
      code: "MorePages",
      message: "More changes on the next page: call again with 'cursor' set to nextCursor.",
    });
  }
  const clock = serverClock(now);
  return { summary: lineOf(count, null, notes, clock), notes, ...clock };
}

/** `structuredContent` of a changes call. */
export function changesStructured(result: ChangesResult, now: number): ChangesStructured {
  const { summary, notes, ...clock } = changesWords(result, now);
  return { summary, notes, ...result.output, ...clock };
}

function countsOf(changes: ChangeOutput[]): Record<(typeof KINDS)[number], number> {
  const counts = { created: 0, modified: 0, renamed: 0, removed: 0 };
  for (const c of changes) counts[c.change]++;
  return counts;
}
