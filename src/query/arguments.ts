/**
 * Checking `fs.search_by_time` arguments, in the order of contract §5 steps 1 to 8;
 * the first failure is reported. The result is the {@linkcode SearchRequest} every
 * later stage takes.
 *
 * @module
 */
import { z } from "zod";
import { type Config, findRoot } from "../config.ts";
import { ToolError } from "../errors.ts";
import {
  type Guard,
  hostRules,
  isWithin,
  normalizeAbsolute,
  strictGuard,
} from "../security/mod.ts";
import { decodeCursor, queryHash } from "./cursor.ts";
import { compileGlob, GlobSyntaxError } from "./glob.ts";
import { type SearchRequest, type Sort, SORTS, TIME_FIELDS, type TimeField } from "./request.ts";
import { parseDateTime } from "./time.ts";

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
});

/** A checked request and the hash its cursors carry. */
export interface ParsedArguments {
  request: SearchRequest;
  queryHash: string;
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
): ParsedArguments {
  // 1. shape
  const shape = argumentsShape.safeParse(raw ?? {});
  if (!shape.success) throw invalidArgument(shape.error.issues[0], raw);
  const args = shape.data;

  // 2. enums
  const timeField = checkEnum<TimeField>("timeField", args.timeField, TIME_FIELDS);
  const sort = checkEnum<Sort>("sort", args.sort ?? "time_desc", SORTS);

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
  const exclude = (args.exclude ?? []).filter((pattern) => pattern !== "");
  exclude.forEach((pattern, i) => checkGlob(`exclude[${i}]`, pattern));

  // 6. times
  const from = checkTime("from", args.from);
  const to = checkTime("to", args.to);
  if (from !== null && to !== null && from > to) {
    throw new ToolError(
      "InvalidRange",
      "'from' must not be later than 'to'.",
      "Set 'from' <= 'to' (from inclusive, to exclusive).",
    );
  }

  // 7. root and path
  const root = args.root === undefined || args.root === ""
    ? config.defaultRoot
    : checkRoot(args.root, config);
  const path = args.path === undefined ? "" : guard.relativePath(args.path);

  const query = {
    root,
    start: { path, recursive: args.recursive ?? true, maxDepth },
    filter: {
      timeField,
      from,
      to,
      glob,
      includeFiles: args.includeFiles ?? true,
      includeDirectories: args.includeDirectories ?? false,
      includeUnknownTime: args.includeUnknownTime ?? false,
      exclude: [...exclude, ...config.exclude],
      respectIgnoreFiles: args.respectIgnoreFiles ?? config.respectIgnoreFiles,
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
  return { request, queryHash: hash };
}

function invalidArgument(issue: z.core.$ZodIssue | undefined, raw: unknown): ToolError {
  const where = issue && issue.path.length > 0 ? `'${issue.path.join(".")}'` : "the arguments";
  let message: string;
  if (issue?.code === "unrecognized_keys") {
    message = `Unknown argument ${issue.keys.map((k) => `'${k}'`).join(", ")}.`;
  } else if (issue?.code === "invalid_type" && issue.path.length === 0) {
    message = "The arguments must be a JSON object.";
  } else if (
    issue?.code === "invalid_type" && issue.path.length === 1 &&
    !(typeof raw === "object" && raw !== null && String(issue.path[0]) in raw)
  ) {
    message = `${where} is required.`;
  } else if (issue?.code === "invalid_type") {
    message = `${where} must be of type ${issue.expected}.`;
  } else {
    message = `${where} ${issue?.message ?? "is invalid"}.`;
  }
  return new ToolError(
    "InvalidArgument",
    message,
    "Send only the documented arguments with their documented JSON types; 'timeField' ('modified' or 'created') is required.",
  );
}

function checkEnum<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ToolError(
    "InvalidEnum",
    `'${name}' must be one of ${allowed.map((a) => `'${a}'`).join(", ")}.`,
    `Set '${name}' to one of: ${allowed.join(", ")}.`,
  );
}

function checkLength(
  name: string,
  value: string | undefined,
  max: number,
  code: "GlobTooLong" | "PathTooLong" | "CursorTooLong",
  fix: string,
): void {
  if (value !== undefined && value.length > max) {
    throw new ToolError(
      code,
      `'${name}' is ${value.length} characters long; the limit is ${max}.`,
      fix,
    );
  }
}

function checkGlob(name: string, glob: string): void {
  try {
    compileGlob(glob);
  } catch (err) {
    if (!(err instanceof GlobSyntaxError)) throw err;
    throw new ToolError("InvalidArgument", err.message.replace("'glob'", `'${name}'`), err.fix);
  }
}

function checkTime(name: "from" | "to", value: string | undefined): number | null {
  if (value === undefined) return null;
  const ms = parseDateTime(value);
  if (ms === undefined) {
    throw new ToolError(
      "InvalidDateTime",
      `'${name}' is not an RFC 3339 date-time with a time zone offset.`,
      "Use a value like '2025-12-15T00:00:00Z' or '2025-12-15T09:00:00+09:00'.",
    );
  }
  return ms;
}

function checkRoot(value: string, config: Config): SearchRequest["root"] {
  const found = findRoot(config.roots, value);
  if (found) return found;
  const abs = hostRules.isAbsolute(value) ? normalizeAbsolute(value) : null;
  const inside = abs !== null && config.roots.some((r) => isWithin(r.path, abs));
  throw new ToolError(
    "RootNotAllowed",
    inside
      ? "'root' is a folder inside an allowed root, not an allowed root itself."
      : "'root' is not one of the folders this server may search.",
    inside
      ? "Pass the allowed root as 'root' (or omit 'root') and the subfolder, relative to it, as 'path'."
      : "Omit 'root' to use the default root, or pass an allowed root exactly as configured.",
  );
}
