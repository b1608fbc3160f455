/**
 * The `fs.changes_since` use case (contract §24, §24a): the net changes of a root since a
 * clock or a time, from its index's journal when the journal reaches back that far and
 * nothing was lost since; otherwise a fresh instance: what times alone can say (every
 * entry modified or created since then), no removals, and why. Without `root`, the root a
 * clock names. Paged in path order; every page answers as of the first page's new clock,
 * and is cut to fit (contract §16).
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
import { encodeClock, rootClock, rootTag } from "./clock.ts";
import {
  type ChangesCursor,
  encodeChangesCursor,
  parseChangesArguments,
} from "./changes_arguments.ts";
import { freshChanges } from "./fresh_changes.ts";
import type { ChangeOutput, ChangesOutput, ChangesResult } from "./changes_output.ts";

/** Why a clock from before the root's index last became ready cannot be followed. */
const ANOTHER_RUN = "the clock is from another run of the server";
const LEARNED_AGAIN =
  "the root's index learned the tree again since the clock (events were lost, or its watch restarted)";

/** The most characters a page's cursor takes (its clock, positions and last path). */
export const CURSOR_ROOM = 8_000;

/** Each root's journal, as the live index offers it. */
export interface Journals {
  journalOf(path: string): { epoch: number; position: number; run?: string } | null;
  askJournal(
    path: string,
    query: JournalQuery,
    signal?: AbortSignal,
  ): Promise<{ answer: JournalAnswer; epoch: number; run?: string } | string>;
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
  const tag = rootTag(request.search.root.realPath);
  const elapsed = () => Math.max(0, deps.clock.now() - started);
  const noJournal = deps.noJournal ?? "the index is off (INDEX=off)";
  const limit = request.search.limit;
  const cursor = request.cursor;
  if (cursor?.fresh) {
    return await fresh(cursor.clock, cursor.sinceMs, cursor.fresh.reason, cursor.fresh.cursor);
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
  return await fresh(rootClock(deps, rootPath, started), sinceMs, first);

  /** The first page from the journal, or why the journal cannot answer (a fresh instance). */
  async function firstPage(): Promise<ChangesResult | string> {
    let from: JournalQuery["since"] = { ms: sinceMs };
    let epoch: number | null = null;
    const now = deps.journals?.journalOf(rootPath) ?? null;
    const run = (r: string | undefined) => r ?? deps.run;
    if ("clock" in since) {
      const c = since.clock;
      if (c.run === "") return "the clock is from an earlier version of the server";
      if (c.root !== tag) return "the clock is another root's";
      // A shared index's run is known once its service answered (asked below when not yet).
      const known = now !== null || deps.journals === null;
      if (known && !timeOnlyOurs(c) && c.run !== run(now?.run)) return ANOTHER_RUN;
      // A clock that names a time only: its root was not indexed then, or not answered from
      // since it became ready; the journal answers from the time if it reaches back to it.
      if (c.at !== null) {
        from = { position: c.at.position };
        epoch = c.at.epoch;
      }
    }
    if (deps.journals === null) return noJournal;
    if (epoch !== null && now !== null && now.epoch !== epoch) return LEARNED_AGAIN;
    const asked = await ask(from, null, null);
    if (typeof asked === "string") return `its index cannot answer now: ${asked}`;
    if ("clock" in since && !timeOnlyOurs(since.clock) && since.clock.run !== run(asked.run)) {
      return ANOTHER_RUN;
    }
    if ("fresh" in asked.answer) return asked.answer.fresh;
    if (epoch !== null && asked.epoch !== epoch) return LEARNED_AGAIN;
    const next = encodeClock({
      run: run(asked.run),
      root: tag,
      at: { epoch: asked.epoch, position: asked.answer.until },
      ms: started,
    });
    return fromJournal(asked.answer, asked.epoch, next, sinceMs);
  }

  /**
   * A clock this server gave naming a time only (its root's shared journal not known then):
   * answered from its time by whichever journal keeps the root (contract §28).
   */
  function timeOnlyOurs(c: { run: string; at: unknown }): boolean {
    return c.at === null && c.run === deps.run;
  }

  /** The root's journal asked for the changes from `from` up to `until`, a page after `after`. */
  function ask(from: JournalQuery["since"], until: number | null, after: string | null) {
    const query: JournalQuery = {
      since: from,
      until,
      startPath: request.search.start.path,
      filter: request.search.filter,
      expand: request.expand,
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
        root: rootPath,
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
          ...(answer.vcs > 0 ? { excluded: answer.vcs } : {}),
        },
      };
    };
    // Cut to fit (contract §16): each change's own length off the whole, from the end.
    const whole = output();
    let over = overBy(whole);
    if (over > 0 && whole.nextCursor === null) over += CURSOR_ROOM; // a cut page gains one
    let cutForSize = false;
    while (over > 0 && changes.length > 1) {
      over -= JSON.stringify(changes.pop()).length + 1;
      more = cutForSize = true;
    }
    const vcs = { count: answer.vcs, atLeast: false };
    return {
      output: output(),
      request,
      facts: { counts: answer.counts, cutForSize, vcs, inWholeFolders: answer.inWholeFolders },
    };
  }

  /** A fresh instance's page (contract §24: what times can say), from a search. */
  async function fresh(
    clock: string,
    sinceMs: number,
    why: string,
    searchCursor?: string,
  ): Promise<ChangesResult> {
    const base = {
      root: rootPath,
      clock,
      since: formatTime(sinceMs),
      freshInstance: true,
      complete: false,
      reason: why,
    };
    const page = await freshChanges(args, deps, sinceMs, searchCursor, (changes, more) =>
      overBy({
        ...base,
        changes,
        nextCursor: more ? "x".repeat(CURSOR_ROOM) : null,
        stats: WIDEST_FRESH_STATS,
      }) <= 0, signal);
    const next: ChangesCursor | null = page.nextCursor === null
      ? null
      : { clock, sinceMs, fresh: { reason: why, cursor: page.nextCursor } };
    return {
      output: {
        ...base,
        changes: page.changes,
        nextCursor: next === null ? null : encodeChangesCursor(next, request.queryHash),
        stats: {
          returned: page.changes.length,
          elapsedMs: elapsed(),
          ...(page.total === null ? {} : { totalChanges: page.total }),
          ...(page.vcs > 0 ? { excluded: page.vcs } : {}),
          ...(page.truncated ? { truncated: true } : {}),
        },
      },
      request,
      facts: {
        cutForSize: page.cutForSize,
        vcs: { count: page.vcs, atLeast: page.total === null },
        inWholeFolders: 0,
      },
    };
  }

  /** How many characters `output` is over the bound (contract §16). */
  function overBy(output: ChangesOutput): number {
    const max = deps.maxResultChars;
    if (max === undefined) return -Infinity;
    return JSON.stringify(output).length - (max - 16 - (deps.wordsRoom ?? 0));
  }
}

/** A fresh instance's stats at their widest, to measure a page by its changes alone. */
const WIDEST_FRESH_STATS: ChangesOutput["stats"] = {
  returned: 1000,
  elapsedMs: Number.MAX_SAFE_INTEGER,
  totalChanges: Number.MAX_SAFE_INTEGER,
  excluded: Number.MAX_SAFE_INTEGER,
  truncated: true,
};

function toOutput(c: ChangeRecord): ChangeOutput {
  return {
    path: c.path,
    change: c.change,
    isDirectory: c.isDirectory,
    sizeBytes: c.sizeBytes,
    modifiedAt: c.modified === null ? null : formatTime(c.modified),
    createdAt: c.created === null ? null : formatTime(c.created),
    ...(c.previousPath === undefined ? {} : { previousPath: c.previousPath }),
    ...(c.entries === undefined ? {} : { entries: c.entries }),
  };
}
