/**
 * What a model sees of a tool result in Claude Code, Codex and VS Code: only
 * `JSON.stringify(structuredContent)` when the result has one, else the content text
 * (anthropics/claude-code#79944; contract §4). And the check that the structured result
 * says everything the summary line says, each fact from its own field.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The text such a client hands its model for `result`. */
export function modelView(result: CallToolResult): string {
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return result.content.map((item: CallToolResult["content"][number]) =>
    item.type === "text" ? item.text : ""
  ).join("\n");
}

/** The words of a structured search result, as a model reads them. */
export interface Seen {
  summary: string;
  notes: { code: string; message: string }[];
  sort: string;
  window: { from: string | null; to: string | null; timeZone: string; offset: string } | null;
  serverTime: string;
  localTime: string;
  timeZone: { name: string; offset: string };
  timeField: string;
  matches: unknown[];
  stats: { returned: number; totalMatches?: number; matchesAtLeast?: number };
}

/**
 * Checks that a model shown only the structured result learns every fact of the summary
 * line (`content[0]`) from the fields, and returns what it sees: the line is the `summary`;
 * taking out each note's sentence, the window said from `window`, and the server's time said
 * from `serverTime`, `localTime` and `timeZone` leaves only the plain count, whose numbers
 * and order are the fields'.
 */
export function seenWhole(result: CallToolResult): Seen {
  assert.equal(result.isError, false);
  const line = result.content[0]?.type === "text" ? result.content[0].text : "";
  const seen = JSON.parse(modelView(result)) as Seen;
  assert.equal(seen.summary, line, "the summary line is in the structured result");
  let rest = ` ${line}`;
  const take = (sentence: string, what: string) => {
    assert.ok(rest.includes(` ${sentence}`), `${what}: '${sentence}' not in '${line}'`);
    rest = rest.replace(` ${sentence}`, "");
  };
  const { serverTime, localTime, timeZone, window } = seen;
  take(
    `Server time: ${serverTime} (${localTime} in ${timeZone.name}, UTC${timeZone.offset}).`,
    "time",
  );
  if (window) {
    const span = window.from !== null && window.to !== null
      ? `from ${window.from} to ${window.to}`
      : window.from !== null
      ? `since ${window.from}`
      : `before ${window.to}`;
    take(`Window: ${span} local time (${window.timeZone}).`, "window");
  }
  for (const note of seen.notes) take(note.message, note.code);
  rest = rest.trim();
  if (rest === "") {
    assert.ok(
      seen.notes.some((n) => n.code.startsWith("Total") || n.code === "LastPageNotCounted"),
    );
    return seen;
  }
  // What is left is the plain count, from the fields.
  const order = seen.sort === "path_asc"
    ? "path"
    : `${seen.timeField} ${seen.sort === "time_desc" ? "desc" : "asc"}`;
  const n = seen.matches.length;
  const total = seen.stats.totalMatches ?? n;
  const noun = "(files?|entry|entries)";
  const plain = total > n
    ? new RegExp(`^Found ${total} ${noun}; this page shows ${n} \\(sorted by ${order}\\)\\.$`)
    : new RegExp(`^Found ${n} ${noun} \\(sorted by ${order}\\)\\.$`);
  assert.match(rest, plain, "only the plain count is left, and the fields say it");
  return seen;
}

/** The words of a structured `fs.changes_since` result, as a model reads them. */
export interface ChangesSeen {
  summary: string;
  notes: { code: string; message: string }[];
  serverTime: string;
  localTime: string;
  timeZone: { name: string; offset: string };
  since: string;
  freshInstance: boolean;
  changes: { change: string }[];
  nextCursor: string | null;
  stats: { totalChanges?: number; counts?: Record<string, number> };
}

/**
 * As {@linkcode seenWhole}, for `fs.changes_since` (contract §24): taking out each note and
 * the server's time leaves only the count, whose numbers are the fields' (`totalChanges` and
 * `counts` from the journal; a fresh instance's page of `changes`).
 */
export function changesSeenWhole(result: CallToolResult): ChangesSeen {
  assert.equal(result.isError, false);
  const line = result.content[0]?.type === "text" ? result.content[0].text : "";
  const seen = JSON.parse(modelView(result)) as ChangesSeen;
  assert.equal(seen.summary, line, "the summary line is in the structured result");
  let rest = ` ${line}`;
  const take = (sentence: string, what: string) => {
    assert.ok(rest.includes(` ${sentence}`), `${what}: '${sentence}' not in '${line}'`);
    rest = rest.replace(` ${sentence}`, "");
  };
  const { serverTime, localTime, timeZone } = seen;
  take(
    `Server time: ${serverTime} (${localTime} in ${timeZone.name}, UTC${timeZone.offset}).`,
    "time",
  );
  for (const note of seen.notes) take(note.message, note.code);
  rest = rest.trim();
  const counts: Record<string, number> = seen.stats.counts ?? {};
  if (!seen.stats.counts) {
    for (const c of seen.changes) counts[c.change] = (counts[c.change] ?? 0) + 1;
  }
  const kinds = ["created", "modified", "renamed", "removed"].filter((k) => (counts[k] ?? 0) > 0)
    .map((k) => `${counts[k]} ${k}`).join(", ");
  const when = `since [0-9-]+ [0-9:]+ local time \\(${
    timeZone.name.replace("/", "\\/")
  }, UTC[+-]\\d\\d:\\d\\d\\)`;
  const n = seen.freshInstance ? seen.changes.length : seen.stats.totalChanges!;
  const plain = seen.freshInstance
    ? `^${n} (entry|entries) modified or created ${when} on this page${
      kinds ? `: ${kinds}` : ""
    }\\.$`
    : n === 0
    ? `^No changes ${when}\\.$`
    : `^${n} changes? ${when}: ${kinds}\\.$`;
  assert.match(rest, new RegExp(plain), "only the plain count is left, and the fields say it");
  return seen;
}
