/**
 * What a changes call says (contract §4, §24, §24a): its summary (how many changes of each
 * kind since the time, in the server's zone), each other fact a note (the root the clock
 * named, a fresh instance and what it cannot say, a cut page, more pages, what
 * version-control folders held, changes that lie in folders moved or removed whole); its
 * structured result (each fact once) and the line people read.
 *
 * @module
 */
import { lineOf, type Note, type Said, shaped, vcsNote } from "../presentation.ts";
import { localTime, serverTimeZone, TOOL_WORDS, type Words } from "../query/mod.ts";
import type { ChangeOutput, ChangesResult } from "./changes_output.ts";

/** `structuredContent` of a changes call. */
export type ChangesStructured = ReturnType<typeof changesStructured>["structured"];

const KINDS = ["created", "modified", "renamed", "removed"] as const;

/**
 * What a changes call says: its summary, a fresh instance's fields as a sentence, and its
 * notes.
 */
export function changesSaid(result: ChangesResult, words: Words = TOOL_WORDS): Said {
  const { output, request, facts } = result;
  const since = localTime(Date.parse(output.since), serverTimeZone(), "second").time;
  const when = `since ${since} local time`;
  const n = output.changes.length;
  const folders = request.search.filter.includeDirectories;
  const noun = (k: number) =>
    k === 1 ? (folders ? "entry" : "file") : (folders ? "entries" : "files");
  const notes: Note[] = [];
  const note = (code: Note["code"], message: string) => notes.push({ code, message });
  let summary: string;
  if (output.freshInstance) {
    const total = output.stats.totalChanges;
    const what = `modified or created ${when}`;
    summary = total !== undefined
      ? total > n
        ? `Found ${total} ${noun(total)} ${what}; this page shows ${n}.`
        : `Found ${n} ${noun(n)} ${what}.`
      : output.stats.truncated
      ? `Found ${n} ${
        noun(n)
      } ${what} in the part of the tree scanned so far; the total is not known.`
      : output.nextCursor !== null
      ? `Found more than ${n} ${
        noun(n + 1)
      } ${what}; the total was not counted. This page shows ${n}.`
      : request.cursor === null
      ? `Found ${n} ${noun(n)} ${what}.`
      : `This last page shows ${n} ${noun(n)} ${what}; the total was not counted.`;
  } else {
    const total = output.stats.totalChanges ?? n;
    const counts = facts.counts ?? countsOf(output.changes);
    const kinds = KINDS.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`).join(", ");
    const page = total > n ? `; this page shows ${n}` : "";
    summary = total === 0
      ? `No changes ${when}.`
      : `${total} ${total === 1 ? "change" : "changes"} ${when}: ${kinds}${page}.`;
  }
  // A fresh instance's fact is its fields (`freshInstance`, `reason`): said, not noted.
  const fields = output.freshInstance
    ? [
      `Removals and renames cannot be known (${output.reason}): listed is what was modified or created since.`,
    ]
    : [];
  if (output.stats.truncated) {
    note(
      "Truncated",
      `The scan stopped at a server limit: this page covers only part of the tree; ${words.nextPage} to continue.`,
    );
  }
  if (facts.cutForSize) {
    note(
      "CutForSize",
      `The page was cut to ${n} to keep the answer short enough for the client; ${words.nextPage} for the rest.`,
    );
  } else if (output.nextCursor !== null && !output.stats.truncated && words.morePages) {
    note("MorePages", `More changes: ${words.nextPage}.`);
  }
  if (facts.vcs.count > 0) {
    const changes = facts.vcs.count === 1 ? "change" : "changes";
    notes.push(vcsNote(facts.vcs.count, facts.vcs.atLeast, changes, words));
  }
  if (facts.inWholeFolders > 0) {
    note(
      "InWholeFolders",
      `${facts.inWholeFolders} of these lie in folders moved or removed as a whole; ${
        words.turnOn("includeDirectories")
      } to get each such folder as one entry.`,
    );
  }
  return { summary, fields, notes };
}

/** `structuredContent` of a changes call, and the line people read. */
export function changesStructured(result: ChangesResult, now: number) {
  const said = changesSaid(result);
  const { root, ...output } = result.output;
  return { structured: shaped(said, { root }, output, now), line: lineOf(said, now) };
}

function countsOf(changes: ChangeOutput[]): Record<ChangeOutput["change"], number> {
  const counts = { created: 0, modified: 0, renamed: 0, removed: 0 };
  for (const c of changes) counts[c.change]++;
  return counts;
}
