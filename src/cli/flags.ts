/**
 * The command line's flags, each with the tool argument it stands for: one table from
 * which the parser's options, the tool arguments and the CLI's words (its messages name
 * its flags, not the tool's arguments) are all derived.
 *
 * @module
 */
import type { Switch, Words } from "../query/mod.ts";
import { parseSize } from "./size.ts";

/** How a flag's value becomes the tool argument's. */
type Value = "text" | "number" | "size" | true | false;

interface Flag {
  /** The tool argument it sets. */
  input: string;
  /** `text`, `number` and `size` take a value; `true`/`false` are switches setting that. */
  value: Value;
  short?: string;
  multiple?: boolean;
}

/** Every search flag, in the order `--help` lists them. */
export const FLAGS: Record<string, Flag> = {
  "time-field": { input: "timeField", value: "text", short: "t" },
  path: { input: "path", value: "text" },
  within: { input: "within", value: "text" },
  period: { input: "period", value: "text" },
  from: { input: "from", value: "text" },
  to: { input: "to", value: "text" },
  glob: { input: "glob", value: "text", short: "g" },
  "case-sensitive": { input: "caseSensitive", value: true },
  "ignore-case": { input: "caseSensitive", value: false, short: "i" },
  "no-recursive": { input: "recursive", value: false },
  "max-depth": { input: "maxDepth", value: "number" },
  dirs: { input: "includeDirectories", value: true },
  "no-files": { input: "includeFiles", value: false },
  "min-size": { input: "minSizeBytes", value: "size" },
  "max-size": { input: "maxSizeBytes", value: "size" },
  sort: { input: "sort", value: "text", short: "s" },
  limit: { input: "limit", value: "number", short: "n" },
  cursor: { input: "cursor", value: "text" },
  "include-unknown-time": { input: "includeUnknownTime", value: true },
  exclude: { input: "exclude", value: "text", short: "x", multiple: true },
  "respect-ignore-files": { input: "respectIgnoreFiles", value: true },
  "include-vcs": { input: "includeVcs", value: true },
  expand: { input: "expand", value: true },
};

type ParseOption = { type: "string" | "boolean"; short?: string; multiple?: boolean };

/** The options for `node:util` parseArgs: every flag, `--json`, `--utc` and `--help`. */
export const PARSE_OPTIONS: Record<string, ParseOption> = {
  ...Object.fromEntries(
    Object.entries(FLAGS).map(([name, { value, short, multiple }]) => [name, {
      type: typeof value === "boolean" ? "boolean" : "string",
      ...(short === undefined ? {} : { short }),
      ...(multiple === undefined ? {} : { multiple }),
    }]),
  ),
  json: { type: "boolean" },
  utc: { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

/** The flags (long and short) whose value may be a negative number, which parseArgs would take for a flag. */
export const NUMBER_FLAGS: ReadonlySet<string> = new Set(
  Object.entries(FLAGS).filter(([, flag]) => flag.value === "number").flatMap((
    [name, { short }],
  ) => [`--${name}`, ...(short === undefined ? [] : [`-${short}`])]),
);

/** Parsed flag values, as parseArgs gives them. */
export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** A flag whose value is not what it needs: a usage error, before the tool sees it. */
export class FlagError extends Error {}

/**
 * The tool arguments the flags stand for, with `timeField` defaulting to `modified`.
 * Throws `FlagError` for a number or size flag whose value is not one.
 */
export function toolArguments(values: FlagValues): Record<string, unknown> {
  const args: Record<string, unknown> = { timeField: "modified" };
  for (const [name, flag] of Object.entries(FLAGS)) {
    const given = values[name];
    if (given === undefined || given === false) continue;
    if (typeof flag.value === "boolean") {
      args[flag.input] = flag.value;
    } else if (flag.value === "number") {
      if (!/^-?\d+$/.test(String(given))) {
        throw new FlagError(`--${name} needs a whole number, not '${given}'.`);
      }
      args[flag.input] = Number(given);
    } else if (flag.value === "size") {
      const bytes = parseSize(String(given));
      if (bytes === null) {
        throw new FlagError(
          `--${name} needs a size such as 10k, 5M, 1G (powers of 1000), 5Mi (of 1024) or a number of bytes, not '${given}'.`,
        );
      }
      args[flag.input] = bytes;
    } else {
      args[flag.input] = given;
    }
  }
  return args;
}

/** The flag for a tool argument (`<root>` for the root), or `null` if it has none. */
function flagOf(input: string): string | null {
  if (input === "root") return "<root>";
  const name = Object.entries(FLAGS).find(([, flag]) => flag.input === input)?.[0];
  return name === undefined ? null : `--${name}`;
}

const NEXT_CURSOR = "the cursor the 'Next page:' command carries";

/** The command line's words: its flags, and the 'Next page:' command it prints. */
export const CLI_WORDS: Words = {
  input: (name) => flagOf(name) ?? `'${name}'`,
  turnOn: (name: Switch) => `add ${flagOf(name)}`,
  nextPage: "run the 'Next page:' command below",
  filesOff: "--no-files is given without --dirs",
  morePages: true,
};

/**
 * A tool message in the command line's words: each quoted argument name (`'timeField'`)
 * and each unquoted camel-case one (`includeUnknownTime`) becomes its flag.
 *
 * @example
 * ```ts
 * inCliWords("Set 'from' <= 'to'."); // "Set --from <= --to."
 * ```
 */
export function inCliWords(text: string): string {
  return text
    .replace(/'nextCursor'|\bnextCursor\b/g, NEXT_CURSOR)
    .replace(/'(\w+)'/g, (quoted, name: string) => flagOf(name) ?? quoted)
    .replace(/\b[a-z]+[A-Z]\w*\b/g, (name) => flagOf(name) ?? name);
}
