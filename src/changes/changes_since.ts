/**
 * The `fs.changes_since` use case (contract §24): the net changes of a root since a clock
 * or a time, from its index's journal when the journal reaches back that far and nothing
 * was lost since; otherwise a fresh instance: what times alone can say (every entry
 * modified or created since then), no removals, and why. Paged in path order; every page
 * answers as of the first page's new clock.
 *
 * @module
 */
import type { Config } from "../config.ts";
import { ToolError } from "../errors.ts";
import type { Clock as TimeSource } from "../ports/mod.ts";
import type { Guard } from "../security/mod.ts";
import { formatTime } from "../query/mod.ts";
import type { ChangeRecord, JournalAnswer, JournalQuery } from "../index/mod.ts";
import type { Pager } from "../paging/mod.ts";
import { type Clock, encodeClock, rootClock } from "./clock.ts";
import {
  type ChangesCursor,
  type ChangesRequest,
  encodeChangesCursor,
  parseChangesArguments,
} from "./changes_arguments.ts";
import { freshChanges } from "./fresh_changes.ts";

/** Why a clock from before the root's index last became ready cannot be followed. */
const LEARNED_AGAIN =
  "the root's index learned the tree again since the clock (events were lost, or its watch restarted)";

/** The most characters a page's cursor takes (its clock, positions and last path). */
const CURSOR_ROOM = 8_000;

/** One entry of `changes` in the outputSchema. */
export interface ChangeOutput {
  path: string;
  change: ChangeRecord["change"];
  isDirectory: boolean;
  sizeBytes: number | null;
  modifiedAt: string | null;
  createdAt: string | null;
  previousPath?: string;
}

/** `structuredContent` of a changes call, before its words (contract §24). */
export interface ChangesOutput {
  clock: string;
  since: string;
  freshInstance: boolean;
  complete: boolean;
  reason?: string;
  changes: ChangeOutput[];
  nextCursor: string | null;
  stats: {
    returned: number;
    elapsedMs: number;
    /** Changes of the whole answer, every page (from the journal). */
    totalChanges?: number;
    /** Of each kind, every page (from the journal). */
    counts?: Record<ChangeRecord["change"], number>;
    /** A fresh instance's scan: what it read, and whether a limit cut it short. */
    scannedFiles?: number;
    scannedDirectories?: number;
    truncated?: boolean;
  };
}

/** A changes call's answer, with what its words need. */
export interface ChangesResult {
  output: ChangesOutput;
  request: ChangesRequest;
}

/** Each root's journal, as the live index offers it. */
export interface Journals {
  journalOf(path: string): { epoch: number; position: number } | null;
  askJournal(
    path: string,
    query: JournalQuery,
    signal?: AbortSignal,
  ): Promise<{ answer: JournalAnswer; epoch: number } | string>;
}

/** What a changes call needs. */
export interface ChangesDeps {
  config: Config;
  pager: Pager;
  clock: TimeSource;
  /** This server run's id (clock.ts). */
  run: string;
  /** The live index's journals; `null` with `INDEX=off`. */
  journals: Journals | null;
  /** Why there are no journals (the fresh instance's reason). Default: `INDEX=off`. */
  noJournal?: string;
  guard?: Guard;
  /** The most characters the output's JSON may have (contract §16). Default: no bound. */
  maxResultChars?: number;
  /** Characters the caller adds to the output (its words), kept free. Default 0. */
  wordsRoom?: number;
}

/**
 * Runs one changes call.
 *
 * @throws {ToolError} for invalid arguments or cursors, and what a fresh instance's scan throws.
 */
export async function changesSince(
  args: unknown,
  deps: ChangesDeps,
  signal?: AbortSignal,
): Promise<ChangesResult> {
  const started = deps.clock.now();
  const request = parseChangesArguments(args, deps.config, deps.guard, started);
  const rootPath = request.search.root.path;
  const root = deps.config.roots.findIndex((r) => r.path === rootPath) + 1;
  const elapsed = () => Math.max(0, deps.clock.now() - started);
  const noJournal = deps.noJournal ?? "the index is off (INDEX=off)";
  const limit = request.search.limit;
  const cursor = request.cursor;
  if (cursor?.fresh) {
    const fresh = await freshChanges(args, deps, cursor.sinceMs, cursor.fresh.cursor, signal);
    return done(fresh, cursor.clock, cursor.sinceMs, cursor.fresh.reason);
  }
  if (cursor?.journal) {
    const { epoch, since, until, after } = cursor.journal;
    const asked = await ask({ position: since }, until, after);
    if (typeof asked === "string" || "fresh" in asked.answer || asked.epoch !== epoch) {
      throw new ToolError(
        "CursorInvalid",
        "The changes this cursor pages through are no longer kept: the root's index learned the tree again since the first page.",
        "Call again without 'cursor', with the same 'since': the answer then says what can still be known.",
      );
    }
    return fromJournal(asked.answer, epoch, cursor.clock, cursor.sinceMs);
  }
  const since = request.since;
  const sinceMs = "clock" in since ? since.clock.ms : since.ms;
  const first = await firstPage();
  if (typeof first !== "string") return first;
  const clock = rootClock(deps, rootPath, started);
  const fresh = await freshChanges(args, deps, sinceMs, undefined, signal);
  return done(fresh, clock, sinceMs, first);

  /** The first page from the journal, or why the journal cannot answer (a fresh instance). */
  async function firstPage(): Promise<ChangesResult | string> {
    let from: JournalQuery["since"] = { ms: sinceMs };
    let epoch: number | null = null;
    if ("clock" in since) {
      const c: Clock = since.clock;
      if (c.run !== deps.run) return "the clock is from another run of the server";
      if (c.root !== root) return "the clock is another root's";
      // A clock that names a time only: its root was not indexed then, or not answered from
      // since it became ready; the journal answers from the time if it reaches back to it.
      if (c.at !== null) {
        from = { position: c.at.position };
        epoch = c.at.epoch;
      }
    }
    if (deps.journals === null) return noJournal;
    const now = deps.journals.journalOf(rootPath);
    if (epoch !== null && now !== null && now.epoch !== epoch) return LEARNED_AGAIN;
    const asked = await ask(from, null, null);
    if (typeof asked === "string") return `its index cannot answer now: ${asked}`;
    if ("fresh" in asked.answer) return asked.answer.fresh;
    if (epoch !== null && asked.epoch !== epoch) return LEARNED_AGAIN;
    const next = clockAt(asked.epoch, asked.answer.until);
    return fromJournal(asked.answer, asked.epoch, next, sinceMs);
  }

  /** The clock of a journal's answer: its epoch, and the position it answered up to. */
  function clockAt(epoch: number, position: number): string {
    return encodeClock({ run: deps.run, root, at: { epoch, position }, ms: started });
  }

  /** The root's journal asked for the changes from `from` up to `until`, a page after `after`. */
  function ask(from: JournalQuery["since"], until: number | null, after: string | null) {
    const query: JournalQuery = {
      since: from,
      until,
      startPath: request.search.start.path,
      filter: request.search.filter,
      after,
      limit,
    };
    return deps.journals!.askJournal(rootPath, query, signal);
  }

  function fromJournal(
    answer: Exclude<JournalAnswer, { fresh: string }>,
    epoch: number,
    clock: string,
    sinceMs: number,
  ): ChangesResult {
    const changes = answer.changes.map(toOutput);
    let more = answer.more;
    const output = (): ChangesOutput => {
      const last = changes.at(-1)?.path;
      const next: ChangesCursor = {
        clock,
        sinceMs,
        journal: { epoch, since: answer.since, until: answer.until, after: last ?? "" },
      };
      return {
        clock,
        since: formatTime(sinceMs),
        freshInstance: false,
        complete: true,
        changes,
        nextCursor: more && last !== undefined
          ? encodeChangesCursor(next, request.queryHash)
          : null,
        stats: {
          returned: changes.length,
          elapsedMs: elapsed(),
          totalChanges: answer.total,
          counts: answer.counts,
        },
      };
    };
    // Cut to fit (contract §16): each change's own length off the whole, from the end.
    const whole = output();
    let over = overBy(whole);
    if (over > 0 && whole.nextCursor === null) over += CURSOR_ROOM; // a cut page gains one
    while (over > 0 && changes.length > 1) {
      over -= JSON.stringify(changes.pop()).length + 1;
      more = true;
    }
    return { output: output(), request };
  }

  function done(
    fresh: Awaited<ReturnType<typeof freshChanges>>,
    clock: string,
    sinceMs: number,
    why: string,
  ): ChangesResult {
    const next: ChangesCursor | null = fresh.nextCursor === null
      ? null
      : { clock, sinceMs, fresh: { reason: why, cursor: fresh.nextCursor } };
    return {
      output: {
        clock,
        since: formatTime(sinceMs),
        freshInstance: true,
        complete: false,
        reason: why,
        changes: fresh.changes,
        nextCursor: next === null ? null : encodeChangesCursor(next, request.queryHash),
        stats: {
          returned: fresh.changes.length,
          elapsedMs: elapsed(),
          scannedFiles: fresh.scannedFiles,
          scannedDirectories: fresh.scannedDirectories,
          truncated: fresh.truncated,
        },
      },
      request,
    };
  }

  /** How many characters `output` is over the bound (contract §16). */
  function overBy(output: ChangesOutput): number {
    const max = deps.maxResultChars;
    if (max === undefined) return 0;
    return JSON.stringify(output).length - (max - 16 - (deps.wordsRoom ?? 0));
  }
}

function toOutput(c: ChangeRecord): ChangeOutput {
  return {
    path: c.path,
    change: c.change,
    isDirectory: c.isDirectory,
    sizeBytes: c.sizeBytes,
    modifiedAt: c.modified === null ? null : formatTime(c.modified),
    createdAt: c.created === null ? null : formatTime(c.created),
    ...(c.previousPath === undefined ? {} : { previousPath: c.previousPath }),
  };
}
