/**
 * Words that steer a model to the right call (contract §23): what is wrong with a date-time
 * and its corrected form, what a duration was meant as, and why an empty answer may be empty.
 * (The closest known name for an unknown one is `calls/closest_name.ts`.)
 *
 * @module
 */
import type { SearchRequest } from "./request.ts";
import { parseDateTime } from "./time.ts";
import type { Words } from "./words.ts";

/** What is wrong with a date-time that is not RFC 3339, and the value it was likely meant as. */
export function dateTimeMistake(text: string): { problem: string; corrected: string | null } {
  let fixed = text.trim();
  const problems: string[] = [];
  if (/^\d{4}-\d\d-\d\d$/.test(fixed)) {
    problems.push("is a date without a time");
    fixed += "T00:00:00Z";
  }
  if (/^\d{4}-\d\d-\d\d[ t]\d/.test(fixed) && fixed[10] !== "T") {
    problems.push(`has '${fixed[10] === " " ? " " : fixed[10]}' where RFC 3339 wants 'T'`);
    fixed = fixed.slice(0, 10) + "T" + fixed.slice(11);
  }
  if (/T\d\d:\d\d(?!:)/.test(fixed)) {
    problems.push("has no seconds");
    fixed = fixed.replace(/T(\d\d:\d\d)(?!:)/, "T$1:00");
  }
  if (/[+-]\d{4}$/.test(fixed)) {
    problems.push("has an offset without a colon");
    fixed = fixed.replace(/([+-]\d\d)(\d\d)$/, "$1:$2");
  } else if (/T\d\d:\d\d:\d\d(\.\d+)?$/.test(fixed)) {
    problems.push("has no time zone offset");
    fixed += "Z";
  }
  if (problems.length === 0) {
    const day = /^(\d{4}-\d\d-\d\d)T/.exec(fixed)?.[1];
    if (day && parseDateTime(`${day}T00:00:00Z`) === undefined) {
      return { problem: `names a day that does not exist (${day})`, corrected: null };
    }
    return { problem: "is not an RFC 3339 date-time", corrected: null };
  }
  const corrected = parseDateTime(fixed) === undefined ? null : fixed;
  return { problem: problems.join(" and "), corrected };
}

/** An empty answer's hint: a stable code (contract §4) and its sentence. */
export interface Hint {
  code: "NothingToList" | "AbsoluteGlob" | "GlobFromRoot" | "GlobTopLevel";
  message: string;
}

/**
 * Why an answer with no match may be empty, when the arguments themselves suggest it: a
 * glob that cannot match below `path` (globs match from the root), a glob written as an
 * absolute path.
 */
export function emptyAnswerHints(request: SearchRequest, words: Words): Hint[] {
  const hints: Hint[] = [];
  const { glob, includeFiles, includeDirectories } = request.filter;
  if (!includeFiles && !includeDirectories) {
    hints.push({
      code: "NothingToList",
      message: `${words.filesOff}, so nothing can match: ${
        words.turnOn("includeDirectories")
      } to list folders.`,
    });
  }
  const path = request.start.path;
  if (glob !== null && glob.startsWith("/")) {
    hints.push({
      code: "AbsoluteGlob",
      message: `The glob '${glob}' starts with '/', but globs match the root-relative path: try '${
        glob.replace(/^\/+/, "")
      }'.`,
    });
  } else if (
    glob !== null && path === "" && !glob.includes("/") && !glob.startsWith("**") &&
    request.start.recursive
  ) {
    // '*.md' at the root: the most natural mistake, an empty answer in silence (§26).
    hints.push({
      code: "GlobTopLevel",
      message:
        `The glob '${glob}' has no '/', so it matches entries at the top of the root only: '**/${glob}' matches at any depth.`,
    });
  } else if (glob !== null && path !== "" && !glob.startsWith("**") && !glob.startsWith(path)) {
    hints.push({
      code: "GlobFromRoot",
      message: `Globs match the whole root-relative path, not the part below ${
        words.input("path")
      }: with path '${path}', try glob '${path}/${glob}' or '**/${glob}'.`,
    });
  }
  return hints;
}

/** Units of a spelled-out duration, as the compact form writes them. */
const COMPACT_UNITS: readonly [RegExp, string][] = [
  [/^(s|secs?|seconds?)$/, "s"],
  [/^(mins?|minutes?)$/, "min"],
  [/^(h|hrs?|hours?)$/, "h"],
  [/^(d|days?)$/, "d"],
  [/^(w|wks?|weeks?)$/, "w"],
  [/^(mo|months?)$/, "mo"],
  [/^(y|yrs?|years?)$/, "y"],
];

/**
 * The argument that fits a `within` that is not a duration (contract §23), built from the
 * input: a calendar period ("yesterday", "this week", "last-month") names the matching
 * `period`; a phrase with a number and a unit ("last 3 days", "past 2 hours", "3 days ago")
 * the compact form (`3d`). `null` when it is neither.
 */
export function withinHint(text: string): { period: string } | { within: string } | null {
  const words = text.trim().toLowerCase().replace(/[\s_-]+/g, " ");
  if (words === "today" || words === "this day") return { period: "today" };
  if (words === "yesterday") return { period: "yesterday" };
  const calendar = /^(this|current|last|previous) ?(week|month|year)$/.exec(words);
  if (calendar) {
    const which = calendar[1] === "this" || calendar[1] === "current" ? "this" : "last";
    return { period: `${which}_${calendar[2]}` };
  }
  const phrase =
    /^(?:(?:in|within|over|during) )?(?:the )?(?:(?:last|past|previous) )?(\d+)? ?([a-z]+)(?: ago)?$/
      .exec(words);
  if (
    !phrase ||
    (phrase[1] === undefined && !/^(last|past|previous|in|within|over|during) /.test(words))
  ) {
    return null;
  }
  const unit = COMPACT_UNITS.find(([pattern]) => pattern.test(phrase[2]!))?.[1];
  return unit === undefined ? null : { within: `${phrase[1] ?? 1}${unit}` };
}
