/**
 * The command line: the same search as a person types it, printed as a table.
 *
 * May import: changes, search, workers, paging, query, query/calls, walk, security, ports,
 * config.ts, errors.ts, presentation.ts, result_words.ts.
 *
 * @module
 */
export { type CliIo, runCli } from "./cli.ts";
export { USAGE } from "./usage.ts";
