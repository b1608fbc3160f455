/**
 * The use case: the tool's arguments in, one page out (`searchByTime`), for the MCP
 * adapter and the command line alike.
 *
 * May import: paging, walk, query, query/calls, query/arguments, security, ports, config.ts,
 * errors.ts.
 *
 * @module
 */
export {
  type MatchOutput,
  searchByTime,
  type SearchDeps,
  type SearchOutput,
  type SearchResult,
} from "./search_by_time.ts";
