/**
 * A root's clock (contract §24): an opaque string naming the server run, the root, the
 * epoch of its index's journal and a position in it, and the time it was given at; or,
 * for a root not indexed then, the run, the root and the time alone. Never a path.
 *
 * @module
 */
import { ToolError } from "../errors.ts";

/** What a clock names. */
export interface Clock {
  /** The server run that gave it (a random id made at start-up). */
  run: string;
  /** The root's number among the allowed roots, from 1. */
  root: number;
  /** The journal's epoch and position, or `null` when the root was not indexed then. */
  at: { epoch: number; position: number } | null;
  /** When it was given (epoch ms): what a fresh instance answers from. */
  ms: number;
}

const PREFIX = "fts1";

/** A new server run's id: 12 random hex digits. */
export function newRunId(): string {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 12);
}

/** Where a root's clock is read from: the run, the allowed roots, each root's journal. */
export interface ClockSource {
  run: string;
  config: { roots: readonly { path: string }[] };
  journals?: { journalOf(path: string): { epoch: number; position: number } | null } | null;
}

/**
 * The clock of the root at `path` now, given at `ms`: its journal's epoch and position
 * when its index is ready and has answered, else the time only.
 */
export function rootClock(source: ClockSource, path: string, ms: number): string {
  const root = source.config.roots.findIndex((r) => r.path === path) + 1;
  return encodeClock({ run: source.run, root, at: source.journals?.journalOf(path) ?? null, ms });
}

/** The clock's string. */
export function encodeClock(clock: Clock): string {
  const at = clock.at === null ? "-.-" : `${clock.at.epoch}.${clock.at.position}`;
  return `${PREFIX}.${clock.run}.${clock.root}.${at}.${clock.ms.toString(36)}`;
}

/** Whether `text` is meant as a clock (and not a time or a duration). */
export function looksLikeClock(text: string): boolean {
  return text.startsWith(PREFIX + ".");
}

/**
 * Reads a clock.
 *
 * @throws {ToolError} `InvalidArgument` when it is not one this server could have given.
 */
export function decodeClock(text: string, name = "since"): Clock {
  const parts = text.split(".");
  const whole = (s: string | undefined) => s !== undefined && /^\d{1,15}$/.test(s);
  const [prefix, run, root, epoch, position, ms] = parts;
  const at = epoch === "-" && position === "-"
    ? null
    : whole(epoch) && whole(position)
    ? { epoch: Number(epoch), position: Number(position) }
    : undefined;
  const time = ms !== undefined && /^[0-9a-z]{1,12}$/.test(ms) ? parseInt(ms, 36) : NaN;
  if (
    parts.length !== 6 || prefix !== PREFIX || !/^[0-9a-f]{12}$/.test(run ?? "") ||
    !whole(root) || at === undefined || !Number.isSafeInteger(time)
  ) {
    throw new ToolError(
      "InvalidArgument",
      `'${name}' is not a clock this server gives: ${JSON.stringify(text.slice(0, 60))}.`,
      "Pass a 'clock' from an earlier answer unchanged, or an RFC 3339 date-time ('2025-12-15T09:00:00Z'), or a duration back from now ('24h', '7d').",
    );
  }
  return { run: run!, root: Number(root), at, ms: time };
}
