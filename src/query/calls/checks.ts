/**
 * The checks of the tool's arguments, one per kind of value, each throwing the contract's
 * code with a message that names the argument (contract §5).
 *
 * @module
 */
import type { z } from "zod";
import type { Config } from "../../config.ts";
import { findRoot } from "../../config.ts";
import { ToolError } from "../../errors.ts";
import { comparisonKey, hostRules, isWithin, normalizeAbsolute } from "../../security/mod.ts";
import { compileGlob, GlobSyntaxError } from "../glob.ts";
import { meantArgument, numberFix } from "./meant.ts";
import type { SearchRequest } from "../request.ts";
import { closestName } from "./closest_name.ts";
import { dateTimeMistake } from "../hints.ts";
import { parseDateTime } from "../time.ts";

export function invalidArgument(
  issue: z.core.$ZodIssue | undefined,
  raw: unknown,
  known: readonly string[] = [],
): ToolError {
  const where = issue && issue.path.length > 0 ? `'${issue.path.join(".")}'` : "the arguments";
  const given = (key: PropertyKey) => typeof raw === "object" && raw !== null && key in raw;
  if (issue?.code === "unrecognized_keys") {
    // Named as unknown, with the closest known name (contract §23).
    const value = (k: string) => (raw as Record<string, unknown>)[k];
    const fixes: string[] = [];
    const message = issue.keys.map((k) => {
      const meant = meantArgument(k, value(k), known);
      if (meant) fixes.push(meant.fix);
      const close = meant?.meant ?? closestName(k, known);
      return `'${k}' is not an argument${close ? `; did you mean '${close}'?` : "."}`;
    }).join(" ");
    return new ToolError(
      "InvalidArgument",
      message,
      fixes.length > 0 ? fixes.join(" ") : "Send only the documented arguments.",
    );
  }
  if (issue?.code === "invalid_type" && issue.path.length === 0) {
    return new ToolError(
      "InvalidArgument",
      "The arguments must be a JSON object.",
      'Send the arguments as a JSON object, e.g. {"timeField": "modified"}.',
    );
  }
  if (issue?.code === "invalid_type" && issue.path.length === 1 && !given(issue.path[0]!)) {
    const example = EXAMPLES[String(issue.path[0])] ?? null;
    return new ToolError(
      "InvalidArgument",
      `${where} is required.`,
      example === null
        ? `Add ${where}.`
        : `Add ${where}, e.g. "${String(issue.path[0])}": ${example}.`,
    );
  }
  if (issue?.code === "invalid_type") {
    // Which argument, which type, and an example built from the input (contract §23).
    const value = issue.path.reduce<unknown>(
      (at, key) => (at as Record<PropertyKey, unknown> | null)?.[key],
      raw,
    );
    const name = String(issue.path[0]);
    const meant = issue.path.length === 1 ? numberFix(name, value) : null;
    if (meant !== null) {
      return new ToolError(
        "InvalidArgument",
        `${where} must be a string, not ${described(value)}.`,
        meant,
      );
    }
    const example = exampleOf(name, issue.expected, value);
    const type = TYPE_WORDS[issue.expected] ?? issue.expected;
    const like = example === null ? "" : `, like ${example}`;
    const sent = issue.path.length > 1 && issue.expected !== "array" ? `[${example}]` : example;
    return new ToolError(
      "InvalidArgument",
      `${where} must be ${type}${like}, not ${described(value)}.`,
      example === null
        ? `Send ${where} as ${type}.`
        : `Send ${where} as ${type}: "${name}": ${sent}.`,
    );
  }
  return new ToolError(
    "InvalidArgument",
    `${where} ${issue?.message ?? "is invalid"}.`,
    "Send only the documented arguments with their documented JSON types.",
  );
}

/** The JSON types, as a message names them. */
const TYPE_WORDS: Record<string, string> = {
  number: "a number",
  boolean: "true or false",
  string: "a string",
  array: "an array of strings",
  object: "a JSON object",
};

/** An example value of each argument, as JSON (used when the input gives none). */
const EXAMPLES: Record<string, string> = {
  timeField: '"modified"',
  path: '"src"',
  from: '"2025-06-01T00:00:00Z"',
  to: '"2025-07-01T00:00:00Z"',
  within: '"24h"',
  period: '"today"',
  glob: '"**/*.md"',
  sort: '"time_desc"',
  limit: "10",
  maxDepth: "3",
  minSizeBytes: "1000000",
  maxSizeBytes: "1000000",
  exclude: '["**/node_modules"]',
  since: '"24h"',
};

/** A value of the `expected` JSON type for `name`, from what was sent where it can. */
function exampleOf(name: string, expected: string, value: unknown): string | null {
  if (expected === "number" && typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    if (Number.isFinite(n)) return String(n);
  }
  if (expected === "boolean") {
    if (value === "true" || value === "false") return value;
    if (value === 1 || value === 0) return String(value === 1);
    return "true";
  }
  if (expected === "string" && (typeof value === "number" || typeof value === "boolean")) {
    return JSON.stringify(String(value));
  }
  if (expected === "array" && typeof value === "string") return JSON.stringify([value]);
  if (expected === "string" && name === "exclude") return '"**/node_modules"';
  return EXAMPLES[name] ?? null;
}

/** What was sent, in words: `the string "10"`, `the number 5`, `true`, `an array`. */
function described(value: unknown): string {
  if (typeof value === "string") {
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "..." : value)}`;
  }
  if (typeof value === "number") return `the number ${value}`;
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}

export function checkEnum<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  // A typo gets the value it was likely meant as (contract §26).
  const close = closestName(value, allowed);
  throw new ToolError(
    "InvalidEnum",
    `'${name}' must be one of ${allowed.map((a) => `'${a}'`).join(", ")}.`,
    close === null
      ? `Set '${name}' to one of: ${allowed.join(", ")}.`
      : `Did you mean "${name}": "${close}"? The values: ${allowed.join(", ")}.`,
  );
}

export function checkLength(
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

export function checkGlob(name: string, glob: string): void {
  try {
    compileGlob(glob);
  } catch (err) {
    if (!(err instanceof GlobSyntaxError)) throw err;
    throw new ToolError("InvalidArgument", err.message.replace("'glob'", `'${name}'`), err.fix);
  }
}

export function checkTime(
  name: "from" | "to" | "since",
  value: string | undefined,
): number | null {
  if (value === undefined) return null;
  const ms = parseDateTime(value);
  if (ms === undefined) {
    // Name the actual mistake, and offer the corrected value (contract §23).
    const { problem, corrected } = dateTimeMistake(value);
    throw new ToolError(
      "InvalidDateTime",
      `'${name}' ${problem}: ${JSON.stringify(value.slice(0, 40))}.`,
      corrected === null
        ? `Use an RFC 3339 date-time with an offset, like '2025-12-15T00:00:00Z' or '2025-12-15T09:00:00+09:00'; for recent changes, ${
          name === "since" ? "a duration such as '24h'" : "'within' (e.g. '24h')"
        } is simpler.`
        : `Use '${corrected}' (RFC 3339: a 'T', seconds, and an offset such as 'Z' or '+09:00').`,
    );
  }
  return ms;
}

/**
 * `root`: an allowed root as `fs.list_roots` lists it, or (contract §23a) its last path
 * segment or a `~/` form when exactly one allowed root ends so. Anything else is
 * `RootNotAllowed`, listing the allowed roots (the client's own configuration) or, for a
 * folder inside one, naming that root with the subfolder as `path`.
 */
export function checkRoot(value: string, config: Config): SearchRequest["root"] {
  const found = findRoot(config.roots, value) ?? rootByName(value, config.roots);
  if (found) return found;
  const abs = hostRules.isAbsolute(value) ? normalizeAbsolute(value) : null;
  const outer = abs === null ? undefined : config.roots.find((r) => isWithin(r.path, abs));
  if (outer !== undefined) {
    const rel = hostRules.relative(outer.path, abs!).replaceAll(hostRules.sep, "/");
    throw new ToolError(
      "RootNotAllowed",
      "'root' is a folder inside an allowed root, not an allowed root itself.",
      `Send the allowed root and the subfolder in it: "root": ${
        JSON.stringify(outer.path)
      }, "path": ${JSON.stringify(rel)}.`,
    );
  }
  const listed = config.roots.map((r) => JSON.stringify(r.path)).join(", ");
  const fits = rootsEndingIn(value, config.roots).length;
  throw new ToolError(
    "RootNotAllowed",
    `'root' ${
      fits > 1 ? `names ${fits} allowed roots` : "is not one of the folders this server may search"
    }; the allowed roots are ${listed}.`,
    `Set 'root' to one of them exactly (as fs.list_roots lists them), or omit it to search the default root (${
      JSON.stringify(config.roots[0]?.path ?? "")
    }).`,
  );
}

/** The allowed roots whose path ends with `value` as whole segments (`~/` taken off). */
function rootsEndingIn(value: string, roots: readonly SearchRequest["root"][]) {
  const tail = value.replace(/^~(?=[\\/]|$)/, "").replaceAll("\\", "/").replace(/^\/+|\/+$/g, "");
  if (tail === "" || tail.split("/").some((s) => s === "" || s === "." || s === "..")) return [];
  const end = hostRules.sep + tail.replaceAll("/", hostRules.sep);
  return roots.filter((r) => comparisonKey(r.path).endsWith(comparisonKey(end)));
}

/** The allowed root `value` names by its last segments or a `~/` form, when just one fits. */
function rootByName(value: string, roots: readonly SearchRequest["root"][]) {
  if (hostRules.isAbsolute(value)) return undefined;
  const fits = rootsEndingIn(value, roots);
  return fits.length === 1 ? fits[0] : undefined;
}

/** Two arguments that cannot be given together (contract §21). */
export function clash(a: string, aValue: unknown, b: string, bValue: unknown): void {
  if (aValue === undefined || bValue === undefined) return;
  throw new ToolError(
    "InvalidArgument",
    `'${a}' and '${b}' cannot be given together: both say which times count.`,
    "Give one of 'within' (with 'to' if you like), 'period', or 'from'/'to'.",
  );
}

/** A size bound: a whole number of bytes, 0 or more (contract §22). */
export function checkSize(name: string, value: number | undefined): number | null {
  if (value === undefined) return null;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ToolError(
      "InvalidArgument",
      `'${name}' must be a whole number of bytes, 0 or more, not ${value}.`,
      "Give a size in bytes, e.g. 10485760 for 10 MiB, or omit it.",
    );
  }
  return value;
}
