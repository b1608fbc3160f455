/**
 * The checks of the tool's arguments, one per kind of value, each throwing the contract's
 * code with a message that names the argument (contract §5).
 *
 * @module
 */
import type { z } from "zod";
import type { Config } from "../config.ts";
import { findRoot } from "../config.ts";
import { ToolError } from "../errors.ts";
import { hostRules, isWithin, normalizeAbsolute } from "../security/mod.ts";
import { compileGlob, GlobSyntaxError } from "./glob.ts";
import type { SearchRequest } from "./request.ts";
import { closestName, dateTimeMistake } from "./hints.ts";
import { parseDateTime } from "./time.ts";

export function invalidArgument(
  issue: z.core.$ZodIssue | undefined,
  raw: unknown,
  known: readonly string[] = [],
): ToolError {
  const where = issue && issue.path.length > 0 ? `'${issue.path.join(".")}'` : "the arguments";
  let message: string;
  if (issue?.code === "unrecognized_keys") {
    // Named as unknown, with the closest known name (contract §23).
    message = issue.keys.map((k) => {
      const close = closestName(k, known);
      return `'${k}' is not an argument${close ? `; did you mean '${close}'?` : "."}`;
    }).join(" ");
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

export function checkEnum<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ToolError(
    "InvalidEnum",
    `'${name}' must be one of ${allowed.map((a) => `'${a}'`).join(", ")}.`,
    `Set '${name}' to one of: ${allowed.join(", ")}.`,
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

export function checkTime(name: "from" | "to", value: string | undefined): number | null {
  if (value === undefined) return null;
  const ms = parseDateTime(value);
  if (ms === undefined) {
    // Name the actual mistake, and offer the corrected value (contract §23).
    const { problem, corrected } = dateTimeMistake(value);
    throw new ToolError(
      "InvalidDateTime",
      `'${name}' ${problem}: ${JSON.stringify(value.slice(0, 40))}.`,
      corrected === null
        ? "Use an RFC 3339 date-time with an offset, like '2025-12-15T00:00:00Z' or '2025-12-15T09:00:00+09:00'; for recent changes, 'within' (e.g. '24h') is simpler."
        : `Use '${corrected}' (RFC 3339: a 'T', seconds, and an offset such as 'Z' or '+09:00').`,
    );
  }
  return ms;
}

export function checkRoot(value: string, config: Config): SearchRequest["root"] {
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
      : "Omit 'root' to use the default root, or pass an allowed root exactly as fs.list_roots (fs_list_roots) lists it.",
  );
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
