/**
 * A root's clock (contract §24, §24a): an opaque string naming the run of whatever keeps
 * the root's journal (a random id), the root (a tag made from its real path, so that the
 * clock names the same root whatever list of roots a server has), the epoch of the
 * journal and a position in it, and the time it was given at; or, for a root not indexed
 * then, the run, the root and the time alone. Never a path.
 *
 * @module
 */
import { ToolError } from "../errors.ts";

/** What a clock names. */
export interface Clock {
  /** The run that gave it (a random id made at start-up). */
  run: string;
  /** The root's tag ({@linkcode rootTag} of its real path). */
  root: string;
  /** The journal's epoch and position, or `null` when the root was not indexed then. */
  at: { epoch: number; position: number } | null;
  /** When it was given (epoch ms): what a fresh instance answers from. */
  ms: number;
}

const PREFIX = "fts2";
/** The prefix of the clocks of earlier versions (the root by its number in the list). */
const OLD_PREFIX = "fts1";

/** A root's tag in its clocks: 8 hex digits (FNV-1a) of its real path; never the path. */
export function rootTag(realPath: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < realPath.length; i++) {
    h = Math.imul(h ^ realPath.charCodeAt(i), 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** Where a root's clock is read from: the run, the allowed roots, each root's journal. */
export interface ClockSource {
  run: string;
  config: { roots: readonly { path: string; realPath: string }[] };
  journals?: {
    journalOf(path: string): { epoch: number; position: number; run?: string } | null;
  } | null;
}

/**
 * The clock of the root at `path` now, given at `ms`: its journal's epoch and position
 * (and the run of what keeps it) when its index is ready and has answered, else the time
 * only.
 */
export function rootClock(source: ClockSource, path: string, ms: number): string {
  const root = source.config.roots.find((r) => r.path === path)!;
  const journal = source.journals?.journalOf(path) ?? null;
  return encodeClock({
    run: journal?.run ?? source.run,
    root: rootTag(root.realPath),
    at: journal === null ? null : { epoch: journal.epoch, position: journal.position },
    ms,
  });
}

/** The clock's string. */
export function encodeClock(clock: Clock): string {
  const at = clock.at === null ? "-.-" : `${clock.at.epoch}.${clock.at.position}`;
  return `${PREFIX}.${clock.run}.${clock.root}.${at}.${clock.ms.toString(36)}`;
}

/** Whether `text` is meant as a clock (and not a time or a duration). */
export function looksLikeClock(text: string): boolean {
  return text.startsWith(PREFIX + ".") || text.startsWith(OLD_PREFIX + ".");
}

/**
 * Reads a clock. One of an earlier version names no run and no root (`""`): its time
 * alone is used (a fresh instance, contract §24).
 *
 * @throws {ToolError} `InvalidArgument` when it is not one this server could have given.
 */
export function decodeClock(text: string, name = "since"): Clock {
  const parts = text.split(".");
  const old = parts[0] === OLD_PREFIX && parts.length === 6 && /^[0-9a-z]{1,12}$/.test(parts[5]!);
  if (old) return { run: "", root: "", at: null, ms: parseInt(parts[5]!, 36) };
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
    !/^[0-9a-f]{8}$/.test(root ?? "") || at === undefined || !Number.isSafeInteger(time)
  ) {
    throw new ToolError(
      "InvalidArgument",
      `'${name}' is not a clock this server gives: ${JSON.stringify(text.slice(0, 60))}.`,
      "Pass a 'clock' from an earlier answer unchanged, or an RFC 3339 date-time ('2025-12-15T09:00:00Z'), or a duration back from now ('24h', '7d').",
    );
  }
  return { run: run!, root: root!, at, ms: time };
}
