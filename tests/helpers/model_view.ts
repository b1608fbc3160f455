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
  root?: string;
  summary: string;
  notes?: { code: string; message: string }[];
  serverTime: string;
  timeZone: { name: string; offset: string };
  timeField: string;
  range: { from: string | null; to: string | null };
  matches: unknown[];
  nextCursor: string | null;
  stats: { returned: number; totalMatches?: number; matchesAtLeast?: number; truncated?: boolean };
}

/**
 * The line a person reads (`content[0]`), as a model shown only the structured result can
 * make it from the fields: the summary, each note's sentence, and the server's time with
 * its local words worked out from `serverTime` and the zone's offset.
 */
function lineFrom(seen: Pick<Seen, "summary" | "notes" | "serverTime" | "timeZone">): string {
  const { serverTime, timeZone } = seen;
  const sign = timeZone.offset.startsWith("-") ? -1 : 1;
  const [h, m] = timeZone.offset.slice(1).split(":").map(Number);
  const local = new Date(Date.parse(serverTime) + sign * (h! * 60 + m!) * 60_000).toISOString();
  const time = `${local.slice(0, 10)} ${local.slice(11, 16)}`;
  return [
    seen.summary,
    ...(seen.notes ?? []).map((n) => n.message),
    `Server time: ${serverTime} (${time} in ${timeZone.name}, UTC${timeZone.offset}).`,
  ].join(" ");
}

/** The words a model reads once each (contract §24a): no fact said twice. */
function saidOnce(seen: Pick<Seen, "summary" | "notes">): void {
  for (const note of seen.notes ?? []) {
    assert.ok(!seen.summary.includes(note.message), `${note.code} is said twice`);
  }
  assert.doesNotMatch(seen.summary, /Server time/, "the time is its own field");
}

/**
 * Checks that a model shown only the structured result learns every fact of the line
 * people read (`content[0]`) from the fields, each once, and returns what it sees: the line
 * is the summary, the notes and the server's time; the summary is the plain count (and the
 * window, in the server's zone, of `range`), whose numbers and order are the fields'.
 */
export function seenWhole(result: CallToolResult): Seen {
  assert.equal(result.isError, false);
  const line = result.content[0]?.type === "text" ? result.content[0].text : "";
  const seen = JSON.parse(modelView(result)) as Seen;
  assert.equal(lineFrom(seen), line, "the line is the fields' words");
  saidOnce(seen);
  let rest = seen.summary;
  const window = / Window: (from|since|before) .* local time\.$/.exec(rest);
  if (window) rest = rest.slice(0, window.index);
  assert.equal(window !== null, seen.range.from !== null || seen.range.to !== null, "window");
  const order = /\((by path|(newest|oldest)( created)? first)\)/.exec(
    rest,
  );
  assert.ok(order, rest);
  const n = seen.matches.length;
  const total = seen.stats.totalMatches;
  const noun = "(files?|entry|entries)";
  const sorted = "\\((by path|(newest|oldest)( created)? first)\\)";
  const plain = total !== undefined
    ? total > n
      ? `^Found ${total} ${noun}; this page shows ${n} ${sorted}\\.$`
      : `^Found ${n} ${noun} ${sorted}\\.$`
    : seen.stats.truncated
    ? `^Found ${n} ${noun} in the part of the tree scanned so far ${sorted}; the total is not known\\.$`
    : seen.nextCursor !== null
    ? `^Found more than ${n} ${noun}; the total was not counted\\. This page shows ${n} ${sorted}\\.$`
    : `^(Found ${n} ${noun} ${sorted}|This last page shows ${n} ${noun} ${sorted}; the total was not counted)\\.$`;
  assert.match(rest, new RegExp(plain), "the count is the fields'");
  return seen;
}

/** The words of a structured `fs.changes_since` result, as a model reads them. */
export interface ChangesSeen {
  root: string;
  summary: string;
  notes?: { code: string; message: string }[];
  serverTime: string;
  timeZone: { name: string; offset: string };
  since: string;
  freshInstance: boolean;
  changes: { change: string }[];
  nextCursor: string | null;
  stats: { totalChanges?: number };
}

/**
 * As {@linkcode seenWhole}, for `fs.changes_since` (contract §24, §24a): the line is the
 * summary, the notes and the server's time; the summary is the count, whose numbers are the
 * fields' (`totalChanges` and `counts` from the journal; a fresh instance's `totalChanges`
 * or page of `changes`).
 */
export function changesSeenWhole(result: CallToolResult): ChangesSeen {
  assert.equal(result.isError, false);
  const line = result.content[0]?.type === "text" ? result.content[0].text : "";
  const seen = JSON.parse(modelView(result)) as ChangesSeen;
  assert.equal(lineFrom(seen), line, "the line is the fields' words");
  saidOnce(seen);
  const when = "since [0-9-]+ [0-9:]+ local time";
  const noun = "(files?|entry|entries)";
  let plain: string;
  if (seen.freshInstance) {
    const n = seen.changes.length;
    const total = seen.stats.totalChanges;
    plain = total === undefined
      ? `^(Found|This last page shows|Found more than) ${n}`
      : total > n
      ? `^Found ${total} ${noun} modified or created ${when}; this page shows ${n}\\.$`
      : `^Found ${n} ${noun} modified or created ${when}\\.$`;
  } else {
    // The count of each kind: of the page's changes when the page is all of them.
    const n = seen.stats.totalChanges!;
    const counts: Record<string, number> = {};
    for (const c of seen.changes) counts[c.change] = (counts[c.change] ?? 0) + 1;
    const kinds = seen.nextCursor !== null
      ? "[^.;]+"
      : ["created", "modified", "renamed", "removed"].filter((k) => (counts[k] ?? 0) > 0)
        .map((k) => `${counts[k]} ${k}`).join(", ");
    const page = seen.nextCursor !== null ? `; this page shows ${seen.changes.length}` : "";
    plain = n === 0 ? `^No changes ${when}\\.$` : `^${n} changes? ${when}: ${kinds}${page}\\.$`;
  }
  assert.match(seen.summary, new RegExp(plain), "the count is the fields'");
  return seen;
}
