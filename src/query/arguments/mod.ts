/**
 * A tool call's arguments, parsed (with zod) and checked in the contract's order into one
 * `SearchRequest` (contract §5-§10). Kept out of `query/mod.ts`: the workers import the
 * query, and zod, loaded in an isolate, costs it about 5.5 MB (an index worker 22 → 16.6 MB
 * PSS; docs/benchmarks.md), so only the server's own isolate loads it.
 *
 * May import: query, query/calls, security, config.ts, errors.ts.
 *
 * @module
 */
export {
  argumentsShape,
  DEFAULT_LIMIT,
  MAX_CURSOR_LENGTH,
  MAX_EXCLUDES,
  MAX_GLOB_LENGTH,
  MAX_PATH_LENGTH,
  parseArguments,
  type ParsedArguments,
} from "./arguments.ts";
