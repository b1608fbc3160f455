/**
 * What the command line may touch (`main.ts` provides the real ones), its configuration
 * from the folders given, and its usage errors.
 *
 * @module
 */
import { type Config, ConfigError, loadConfig, readablePaths } from "../config.ts";
import { ToolError } from "../errors.ts";
import { errorText } from "../presentation.ts";
import { Pager } from "../paging/mod.ts";
import { inCliWords } from "./flags.ts";
import type { Clock } from "../ports/mod.ts";
import type { Scanner } from "../workers/mod.ts";

/** What the CLI may touch; `main.ts` provides the real ones. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (then long scans show a progress line). */
  errIsTerminal: boolean;
  env(name: string): string | undefined;
  version: string;
  /** How a person runs this command line (`file-time-search`, `deno task cli`): it starts the next-page command. */
  program: string;
  clock: Clock;
  /** A scanner allowed to read exactly these paths. */
  scanner(readPaths: string[]): Scanner;
}

/**
 * The configuration for the folders given (as roots; `ALLOW_ROOTS` and `DEFAULT_ROOT` are
 * not read), or the exit status after saying why there is none.
 */
export function cliConfig(io: CliIo, roots: string[]): Config | number {
  try {
    return loadConfig({
      env: (name) => name === "ALLOW_ROOTS" || name === "DEFAULT_ROOT" ? undefined : io.env(name),
      roots,
    });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`file-time-search: ${err.message}\n`);
    return 2;
  }
}

/**
 * Runs one tool call on the folders given (its configuration, a pager over a scanner that
 * may read them) and prints what `call` returns; the exit status: 0, 1 when the tool
 * refused (its error lines on stderr, in the command line's words), 2 for configuration.
 */
export async function onFolders(
  io: CliIo,
  roots: string[],
  call: (config: Config, pager: Pager) => Promise<string>,
): Promise<number> {
  const config = cliConfig(io, roots);
  if (typeof config === "number") return config;
  const scanner = io.scanner(readablePaths(config));
  try {
    io.out(await call(config, new Pager({ scanner, clock: io.clock, snapshots: false })));
    return 0;
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    io.err(inCliWords(errorText(err)) + "\n");
    return 1;
  } finally {
    scanner.close();
  }
}

/** A usage error in the tool's three lines; exit status 2. */
export function usageError(io: CliIo, message: string): number {
  io.err(
    [
      "ErrorCode: InvalidArgument",
      `Message: ${message}`,
      "Fix: See 'file-time-search --help' for the commands and options.",
    ].join("\n") + "\n",
  );
  return 2;
}

/** Quotes a word for POSIX shells when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}
