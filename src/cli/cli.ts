/**
 * The command line for people: `file-time-search search <root> [options]` and
 * `file-time-search changes <root> --since ...` (changes_cli.ts), the same engine,
 * validation and error codes as the MCP tools, with a readable table or JSON.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { structuredResult } from "../result_words.ts";
import { closestName } from "../query/calls/mod.ts";
import type { ScanProgress } from "../walk/mod.ts";
import { searchByTime } from "../search/mod.ts";
import { FlagError, NUMBER_FLAGS, PARSE_OPTIONS, toolArguments } from "./flags.ts";
import { formatTable } from "./table.ts";
import { USAGE } from "./usage.ts";
import { type CliIo, onFolders, shellQuote, usageError } from "./cli_io.ts";
import { runChangesCli } from "./changes_cli.ts";

export type { CliIo };

/**
 * Runs the CLI with `argv` (without the program name); returns the exit status.
 *
 * @example
 * ```ts
 * const status = await runCli(["search", "/srv/docs", "--glob", "**\/*.md"], io);
 * ```
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    io.out(USAGE + "\n");
    return 0;
  }
  if (argv[0] === "--version" || argv[0] === "-V") {
    io.out(`file-time-search ${io.version}\n`);
    return 0;
  }
  if (argv[0] === "changes") return await runChangesCli(argv.slice(1), io);
  if (argv[0] !== "search") return usageError(io, `Unknown command '${argv[0]}'.`);
  const searchArgs = attachNegativeNumbers(argv.slice(1));
  let parsed;
  try {
    parsed = parseArgs({ args: searchArgs, options: PARSE_OPTIONS, allowPositionals: true });
  } catch (err) {
    // Node's message goes on with advice about '--'; its first sentence says it all.
    const message = err instanceof Error ? err.message : String(err);
    return usageError(io, withClosestFlag(message.split(". ")[0]!.replace(/\.?$/, ".")));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE + "\n");
    return 0;
  }
  if (values.expand) return usageError(io, "'search' does not take --expand (a 'changes' flag).");
  if (positionals.length !== 1) return usageError(io, "Give exactly one <root> folder to search.");
  let args: Record<string, unknown>;
  try {
    args = toolArguments(values);
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    return usageError(io, err.message);
  }
  return await onFolders(io, positionals, async (config, pager) => {
    const result = await searchByTime(
      args,
      { config, pager, clock: io.clock },
      undefined,
      progressLine(io),
    );
    if (io.errIsTerminal) io.err("\r\x1b[K");
    return values.json
      ? JSON.stringify(structuredResult(result, io.clock.now()).structured, null, 2) + "\n"
      : formatTable(
        result,
        io.clock.now(),
        nextPageCommand(io.program, searchArgs),
        values.utc === true,
      );
  });
}

/**
 * An unknown option's message with the closest flag, as the tool names the closest argument
 * (contract §23): `Unknown option '--time_field'; did you mean '--time-field'?`.
 */
function withClosestFlag(message: string): string {
  const unknown = /^Unknown option '(-{1,2})([^'=]+)'/.exec(message);
  if (!unknown) return message;
  const close = closestName(unknown[2]!, Object.keys(PARSE_OPTIONS));
  return close === null ? message : `${message.replace(/\.$/, "")}; did you mean '--${close}'?`;
}

/** `--limit -1` as `--limit=-1`, so that the tool's own range check can name the problem. */
function attachNegativeNumbers(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const next = args[i + 1];
    if (NUMBER_FLAGS.has(args[i]!) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${args[i]}=${next}`);
      i++;
    } else {
      out.push(args[i]!);
    }
  }
  return out;
}

/**
 * The command that shows the next page, given its cursor: the same search with every
 * option repeated (the cursor belongs to this query) and any earlier cursor left out.
 */
function nextPageCommand(program: string, args: string[]): (cursor: string) => string {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--cursor") i++;
    else if (!args[i]!.startsWith("--cursor=")) kept.push(args[i]!);
  }
  return (cursor) =>
    [program, ...["search", ...kept, "--cursor", cursor].map(shellQuote)].join(" ");
}

function progressLine(io: CliIo): ((p: ScanProgress) => void) | undefined {
  if (!io.errIsTerminal) return undefined;
  return ({ files, directories }) =>
    io.err(`\r\x1b[KScanning: ${files} files in ${directories} folders...`);
}
