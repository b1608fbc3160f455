/**
 * Checking `fs.changes_since` arguments (contract §24): `since` (a clock, an RFC 3339
 * date-time, or a duration back from now), the cursor, and the rest as
 * `fs.search_by_time` checks them (root, path, glob, case, excludes, ignore files, kinds,
 * limit), in the same order and with the same codes.
 *
 * @module
 */
import { z } from "zod";
import type { Config } from "../config.ts";
import { ToolError } from "../errors.ts";
import type { Guard } from "../security/mod.ts";
import {
  type Period,
  periodBounds,
  type SearchRequest,
  serverTimeZone,
  withinHint,
  withinStart,
  zonedTime,
} from "../query/mod.ts";
import {
  checkTime,
  encodePayload,
  invalidArgument,
  invalidCursor,
  parsePayload,
} from "../query/calls/mod.ts";
import { argumentsShape, parseArguments } from "../query/arguments/mod.ts";
import { type Clock, decodeClock, looksLikeClock, rootTag } from "./clock.ts";

/** The shape: `fs.search_by_time`'s filters and paging, and `since`. */
export const changesShape = argumentsShape.pick({
  root: true,
  path: true,
  glob: true,
  caseSensitive: true,
  exclude: true,
  respectIgnoreFiles: true,
  includeFiles: true,
  includeDirectories: true,
  includeVcs: true,
  limit: true,
  cursor: true,
}).extend({ since: argumentsShape.shape.timeField, expand: z.boolean().optional() }).strict();

/** Where a later page stands: the first page's answer fixed (contract §24). */
export interface ChangesCursor {
  /** The first page's new clock, repeated on every page. */
  clock: string;
  /** The time changes are since (epoch ms). */
  sinceMs: number;
  /** From the journal: its epoch, the positions between, and the last path given. */
  journal?: { epoch: number; since: number; until: number; after: string };
  /** From times (a fresh instance): why, and the search's own cursor. */
  fresh?: { reason: string; cursor: string };
}

/** A checked changes call. */
export interface ChangesRequest {
  /** The filters, as a search in path order by modified time would have them. */
  search: SearchRequest;
  queryHash: string;
  /** `since` as given: a clock, or a time (epoch ms). */
  since: { clock: Clock } | { ms: number };
  /** A later page's position, or `null` on the first. */
  cursor: ChangesCursor | null;
  /** Each entry under a folder moved or removed as a whole (contract §24a). */
  expand: boolean;
}

/**
 * Checks a changes call's arguments.
 *
 * @throws {ToolError} with the code of the first failing check.
 */
export function parseChangesArguments(
  raw: unknown,
  config: Config,
  guard: Guard | undefined,
  now: number,
): ChangesRequest {
  const shape = changesShape.safeParse(raw ?? {});
  if (!shape.success) {
    const { issues } = shape.error;
    const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0];
    throw invalidArgument(issue, raw, Object.keys(changesShape.shape));
  }
  const { since: sinceText, cursor, expand, ...rest } = shape.data;
  if (rest.root === "*") {
    throw new ToolError(
      "InvalidArgument",
      "'root' must name one root here: changes are kept root by root.",
      "Omit 'root' and pass each root's own clock as 'since', one call per root (each clock names its root).",
    );
  }
  const since = parseSince(sinceText, now);
  const clockRoot = "clock" in since ? clockRootOf(since.clock, config) : null;
  // No `root`: the root the clock names (contract §24a; the answer's `root` says which).
  const rootFromClock = clockRoot !== null && (rest.root === undefined || rest.root === "");
  const parsed = parseArguments(
    {
      ...rest,
      ...(rootFromClock ? { root: clockRoot } : {}),
      timeField: "modified",
      sort: "path_asc",
    },
    config,
    guard,
    now,
  );
  if (clockRoot !== null && !rootFromClock && parsed.request.root.path !== clockRoot) {
    throw new ToolError(
      "InvalidArgument",
      "'since' is the clock of another root than 'root'.",
      "Omit 'root': the clock names its own root. Or pass this root's own clock, or a time ('24h').",
    );
  }
  const hash = `${parsed.queryHash}.${expand === true ? "x" : ""}.${sinceText}`;
  return {
    search: parsed.request,
    queryHash: hash,
    since,
    cursor: cursor === undefined ? null : decodeChangesCursor(cursor, hash),
    expand: expand ?? false,
  };
}

/**
 * The allowed root a clock names (by its tag), or `null` for a clock of an earlier version
 * (it names none).
 *
 * @throws {ToolError} `RootNotAllowed` when it names a root this server does not allow.
 */
function clockRootOf(clock: Clock, config: Config): string | null {
  if (clock.root === "") return null;
  const root = config.roots.find((r) => rootTag(r.realPath) === clock.root);
  if (root) return root.path;
  throw new ToolError(
    "RootNotAllowed",
    "'since' is the clock of a folder this server may not search (another server's, or a root no longer allowed).",
    "Pass a clock from this server's answers (each root's is in fs.list_roots), or a time ('2025-12-15T09:00:00Z', '24h').",
  );
}

/** `since`: a clock, an RFC 3339 date-time, or a duration back from `now`. */
function parseSince(text: string, now: number): ChangesRequest["since"] {
  if (looksLikeClock(text)) return { clock: decodeClock(text) };
  if (/^\d{4}-/.test(text.trim())) return { ms: checkTime("since", text)! };
  try {
    return { ms: withinStart(text, now, serverTimeZone()) };
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    throw new ToolError(
      err.code,
      `'since' is not a clock, a date-time or a duration: ${JSON.stringify(text.slice(0, 40))}.`,
      sinceFix(text, now),
    );
  }
}

/**
 * What to send as `since` for words a model meant as a time (contract §23, §24a), built
 * from them: a calendar period ("yesterday", "this week") its start in the server's zone,
 * as RFC 3339; a phrase ("last 3 days") the duration; else the forms `since` takes.
 */
function sinceFix(text: string, now: number): string {
  const hint = withinHint(text);
  if (hint !== null && "period" in hint) {
    const zone = serverTimeZone();
    const start = zonedTime(periodBounds(hint.period as Period, now, zone).from, zone);
    return `Set 'since' to "${start}" (the start of ${
      hint.period.replace("_", " ")
    } in ${zone}, the server's time zone).`;
  }
  if (hint !== null) return `Set 'since' to "${hint.within}" (a duration back from now).`;
  return "Give 'since' a clock from an earlier answer, an RFC 3339 date-time with an offset ('2025-12-15T09:00:00Z'), or a duration back from now ('24h', '7d', '2weeks', '90min').";
}

/** A later page's cursor (opaque base64url JSON, bound to the call's arguments). */
export function encodeChangesCursor(cursor: ChangesCursor, hash: string): string {
  return encodePayload({ v: 1, q: hash, ...cursor });
}

function decodeChangesCursor(text: string, hash: string): ChangesCursor {
  const p = parsePayload(text);
  if (p.v !== 1) throw invalidCursor("it is not a cursor of fs.changes_since");
  if (p.q !== hash) throw invalidCursor("it belongs to a call with other arguments");
  const j = p.journal as ChangesCursor["journal"] | undefined;
  const f = p.fresh as ChangesCursor["fresh"] | undefined;
  const num = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n);
  if (
    typeof p.clock !== "string" || !num(p.sinceMs) ||
    (j !== undefined && !(num(j.epoch) && num(j.since) && num(j.until) &&
      typeof j.after === "string")) ||
    (f !== undefined && !(typeof f.reason === "string" && typeof f.cursor === "string")) ||
    (j === undefined) === (f === undefined)
  ) throw invalidCursor("its fields are missing or mistyped");
  return {
    clock: p.clock,
    sinceMs: p.sinceMs as number,
    ...(j ? { journal: j } : {}),
    ...(f ? { fresh: f } : {}),
  };
}
