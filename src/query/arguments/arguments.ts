/**
 * Checking `fs.search_by_time` arguments, in the order of contract §5 steps 1 to 8;
 * the first failure is reported. The result is the {@linkcode SearchRequest} every
 * later stage takes.
 *
 * @module
 */
import { z } from "zod";
import type { Config } from "../../config.ts";
import { ToolError } from "../../errors.ts";
import {
  type Guard,
  hostRules,
  isWithin,
  normalizeAbsolute,
  strictGuard,
} from "../../security/mod.ts";
import {
  checkEnum,
  checkGlob,
  checkLength,
  checkRoot,
  checkSize,
  checkTime,
  clash,
  decodeCursor,
  invalidArgument,
  peekChain,
  queryHash,
} from "../calls/mod.ts";
import { type SearchRequest, type Sort, SORTS, TIME_FIELDS, type TimeField } from "../request.ts";
import { type Period, periodBounds, PERIODS, serverTimeZone, withinStart } from "../window.ts";

/** Length limits of contract §14, in UTF-16 code units. */
export const MAX_GLOB_LENGTH = 1024;
export const MAX_PATH_LENGTH = 4096;
export const MAX_CURSOR_LENGTH = 16384;
/** The most `exclude` globs one call may give (contract §17). */
export const MAX_EXCLUDES = 64;
/** Defaults of the contract's inputSchema (§3). */
export const DEFAULT_LIMIT = 100;

const text = z.string().refine((s) => !s.includes("\0"), { message: "must not contain NUL" });

/**
 * Step 1, the shape: known properties, JSON types, `timeField` present, no NUL.
 * Enums and ranges are checked later, so they can get their own codes; the published
 * JSON Schema (tool_schema.ts) says the same with enums and bounds.
 */
export const argumentsShape = z.strictObject({
  root: text.optional(),
  path: text.optional(),
  timeField: text,
  from: text.optional(),
  to: text.optional(),
  glob: text.optional(),
  caseSensitive: z.boolean().optional(),
  recursive: z.boolean().optional(),
  maxDepth: z.number().optional(),
  includeFiles: z.boolean().optional(),
  includeDirectories: z.boolean().optional(),
  sort: text.optional(),
  limit: z.number().optional(),
  cursor: text.optional(),
  includeUnknownTime: z.boolean().optional(),
  exclude: z.array(text).max(MAX_EXCLUDES, { message: `holds more than ${MAX_EXCLUDES} globs` })
    .optional(),
  respectIgnoreFiles: z.boolean().optional(),
  includeVcs: z.boolean().optional(),
  within: text.optional(),
  period: text.optional(),
  minSizeBytes: z.number().optional(),
  maxSizeBytes: z.number().optional(),
});

/** A checked request and the hash its cursors carry. */
export interface ParsedArguments {
  request: SearchRequest;
  queryHash: string;
  /**
   * "Now" for this paging sequence (contract §21): the cursor's `c` on a later page, else
   * the time of this call. Relative windows are resolved against it; it becomes `c`.
   */
  now: number;
}

/**
 * Checks raw tool arguments against the contract and the server's configuration.
 *
 * @throws {ToolError} with the code of the first failing step.
 *
 * @example
 * ```ts
 * const { request } = parseArguments({ timeField: "modified", glob: "**\/*.md" }, config);
 * request.order; // "time_desc"
 * ```
 */
export function parseArguments(
  raw: unknown,
  config: Config,
  guard: Guard = strictGuard,
  callTime: number = Date.now(),
  /** Also match entries created in the window (contract §24: a fresh instance). */
  alsoCreated = false,
): ParsedArguments {
  // 1. shape
  const shape = argumentsShape.safeParse(raw ?? {});
  if (!shape.success) {
    // A misspelled name is reported as unknown (with the name meant), not only as missing.
    const { issues } = shape.error;
    const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0];
    throw invalidArgument(issue, raw, Object.keys(argumentsShape.shape));
  }
  const args = shape.data;

  // 2. enums
  const timeField = checkEnum<TimeField>("timeField", args.timeField, TIME_FIELDS);
  const sort = checkEnum<Sort>("sort", args.sort ?? "time_desc", SORTS);
  const period = args.period === undefined
    ? null
    : checkEnum<Period>("period", args.period, PERIODS);

  // 3. limit
  const limit = args.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new ToolError(
      "LimitOutOfRange",
      `'limit' must be a whole number from 1 to 1000, not ${limit}.`,
      "Set 'limit' between 1 and 1000 (default 100), and page on with 'nextCursor'.",
    );
  }

  // 4. maxDepth
  const cap = config.limits.maxDepth;
  const maxDepth = args.maxDepth ?? null;
  if (maxDepth !== null && (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > cap)) {
    throw new ToolError(
      "MaxDepthOutOfRange",
      `'maxDepth' must be a whole number from 0 to ${cap}, not ${maxDepth}.`,
      `Set 'maxDepth' between 0 (the start path only) and ${cap}, or omit it.`,
    );
  }

  // 5. lengths
  checkLength("glob", args.glob, MAX_GLOB_LENGTH, "GlobTooLong", "Use a shorter, simpler pattern.");
  checkLength(
    "path",
    args.path,
    MAX_PATH_LENGTH,
    "PathTooLong",
    "Use a shorter start path.",
  );
  checkLength(
    "cursor",
    args.cursor,
    MAX_CURSOR_LENGTH,
    "CursorTooLong",
    "Pass 'nextCursor' from the previous result unchanged, or omit 'cursor'.",
  );
  for (const [i, pattern] of (args.exclude ?? []).entries()) {
    checkLength(
      `exclude[${i}]`,
      pattern,
      MAX_GLOB_LENGTH,
      "GlobTooLong",
      "Use a shorter, simpler pattern.",
    );
  }
  const glob = args.glob === undefined || args.glob === "" ? null : args.glob;
  if (glob !== null) checkGlob("glob", glob);
  for (const [i, pattern] of (args.exclude ?? []).entries()) {
    // The gitignore way ('node_modules/') matches no path here, so it would exclude nothing.
    if (pattern.length > 1 && pattern.endsWith("/")) {
      const name = pattern.replace(/\/+$/, "").replace(/^\*\*\//, "");
      throw new ToolError(
        "InvalidArgument",
        `'exclude[${i}]' ends with '/', which matches no path here: ${JSON.stringify(pattern)}.`,
        name.includes("/")
          ? `Write '${name}' to leave out that folder (or file), with everything in it.`
          : `Write '${name}' (a name with no '/' is matched at any depth) to leave out every folder (or file) named '${name}', with everything in it.`,
      );
    }
  }
  const exclude = (args.exclude ?? []).filter((pattern) => pattern !== "");
  exclude.forEach((pattern, i) => checkGlob(`exclude[${i}]`, pattern));

  // 6. times and sizes: at most one of `within`, `period` and the pair from/to (contract §21)
  clash("within", args.within, "period", args.period);
  clash("within", args.within, "from", args.from);
  clash("period", args.period, "from", args.from);
  clash("period", args.period, "to", args.to);
  const now = (args.cursor === undefined ? undefined : peekChain(args.cursor)) ?? callTime;
  const zone = serverTimeZone();
  const window = period === null ? null : periodBounds(period, now, zone);
  const from = args.within !== undefined
    ? withinStart(args.within, now, zone)
    : window?.from ?? checkTime("from", args.from);
  const to = window?.to ?? checkTime("to", args.to);
  if (from !== null && to !== null && from > to) {
    throw new ToolError(
      "InvalidRange",
      "'from' must not be later than 'to'.",
      "Set 'from' <= 'to' (from inclusive, to exclusive).",
    );
  }

  const minSizeBytes = checkSize("minSizeBytes", args.minSizeBytes);
  const maxSizeBytes = checkSize("maxSizeBytes", args.maxSizeBytes);
  if (minSizeBytes !== null && maxSizeBytes !== null && minSizeBytes > maxSizeBytes) {
    throw new ToolError(
      "InvalidRange",
      "'minSizeBytes' must not be more than 'maxSizeBytes'.",
      "Set 'minSizeBytes' <= 'maxSizeBytes' (min inclusive, max exclusive).",
    );
  }

  // 7. root and path
  const root = args.root === undefined || args.root === ""
    ? config.defaultRoot
    : checkRoot(args.root, config);
  const path = args.path === undefined ? "" : startPath(args.path, root, config, guard);

  const query = {
    root,
    start: { path, recursive: args.recursive ?? true, maxDepth },
    filter: {
      timeField,
      from,
      to,
      glob,
      caseSensitive: args.caseSensitive ?? null,
      includeFiles: args.includeFiles ?? true,
      includeDirectories: args.includeDirectories ?? false,
      includeUnknownTime: args.includeUnknownTime ?? false,
      exclude: [...exclude, ...config.exclude],
      respectIgnoreFiles: args.respectIgnoreFiles ?? config.respectIgnoreFiles,
      includeVcs: args.includeVcs ?? false,
      minSizeBytes,
      maxSizeBytes,
      ...(alsoCreated ? { alsoCreated } : {}),
    },
  };
  const hash = queryHash(query);

  // 8. cursor
  const after = args.cursor === undefined ? null : decodeCursor(args.cursor, sort, hash);
  const request: SearchRequest = {
    ...query,
    order: sort,
    limit,
    after,
    limits: config.limits,
  };
  return { request, queryHash: hash, now };
}

/**
 * `path` checked by layer 1 (contract §6). An absolute path is refused all the same, but
 * one inside an allowed root gets a Fix with the same place relative to its root (contract
 * §23: a value computed from the input), naming that root when it is not the one searched
 * (contract §23a: the roots are the client's own configuration).
 */
function startPath(given: string, root: SearchRequest["root"], config: Config, guard: Guard) {
  try {
    return guard.relativePath(given);
  } catch (err) {
    if (!(err instanceof ToolError) || err.code !== "PathNotRelative") throw err;
    if (!hostRules.isAbsolute(given)) throw err;
    const abs = normalizeAbsolute(given);
    const inside = (r: SearchRequest["root"]) =>
      [r.path, r.realPath].find((top) => isWithin(top, abs));
    const within = [root, ...config.roots].find((r) => inside(r) !== undefined);
    if (within === undefined) throw err;
    const rel = hostRules.relative(inside(within)!, abs).replaceAll(hostRules.sep, "/");
    const fix = rel === ""
      ? "That is the root itself: omit 'path'."
      : within === root
      ? `Set 'path' to ${JSON.stringify(rel)}, the same place relative to the root.`
      : `It is inside another allowed root: "root": ${JSON.stringify(within.path)}, "path": ${
        JSON.stringify(rel)
      }.`;
    throw new ToolError(err.code, err.message, fix);
  }
}
