/**
 * Checking `fs.changes_since` arguments (contract §24): `since` (a clock, an RFC 3339
 * date-time, or a duration back from now), the cursor, and the rest as
 * `fs.search_by_time` checks them (root, path, glob, case, excludes, ignore files, kinds,
 * limit), in the same order and with the same codes.
 *
 * @module
 */
import type { Config } from "../config.ts";
import { ToolError } from "../errors.ts";
import type { Guard } from "../security/mod.ts";
import {
  argumentsShape,
  checkTime,
  encodePayload,
  invalidArgument,
  invalidCursor,
  parseArguments,
  parsePayload,
  type SearchRequest,
  serverTimeZone,
  withinStart,
} from "../query/mod.ts";
import { type Clock, decodeClock, looksLikeClock } from "./clock.ts";

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
  limit: true,
  cursor: true,
}).extend({ since: argumentsShape.shape.timeField }).strict();

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
  const { since: sinceText, cursor, ...rest } = shape.data;
  if (rest.root === "*") {
    throw new ToolError(
      "InvalidArgument",
      "'root' must name one root here: changes are kept root by root.",
      "Call fs.changes_since once per root (fs.list_roots names them), each with that root's clock.",
    );
  }
  const parsed = parseArguments(
    { ...rest, timeField: "modified", sort: "path_asc" },
    config,
    guard,
    now,
  );
  const since = parseSince(sinceText, now);
  const hash = `${parsed.queryHash}.${sinceText}`;
  return {
    search: parsed.request,
    queryHash: hash,
    since,
    cursor: cursor === undefined ? null : decodeChangesCursor(cursor, hash),
  };
}

/** `since`: a clock, an RFC 3339 date-time, or a duration back from `now`. */
function parseSince(text: string, now: number): ChangesRequest["since"] {
  if (looksLikeClock(text)) return { clock: decodeClock(text) };
  if (/^\d{4}-/.test(text.trim())) return { ms: checkTime("since", text)! };
  try {
    return { ms: withinStart(text, now, serverTimeZone()) };
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    const said = (s: string) => s.replaceAll("'within'", "'since'");
    throw new ToolError(
      err.code,
      said(err.message),
      `Give 'since' a clock from an earlier answer, an RFC 3339 date-time ('2025-12-15T09:00:00Z'), or a duration back from now: ${
        said(err.fix)
      }`,
    );
  }
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
