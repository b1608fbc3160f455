/**
 * The query and its contract: the one `SearchRequest` a call makes, its times, globs and
 * orders (contract §5-§10). Pure: no file system, no workers. What only the server's own
 * isolate needs is in sub-rooms no worker loads: the arguments' parsing (zod) in
 * `query/arguments`, their checks, the closest name and the cursors (fastest-levenshtein,
 * `node:crypto`) in `query/calls`. An npm package or a `node:` module in a worker starts
 * Deno's Node layer in that isolate, about 4 MB each (contract §28a).
 *
 * May import: security, config.ts, errors.ts, isolate_role.ts.
 *
 * @module
 */
export { withinHint } from "./hints.ts";
export {
  compileGlob,
  globsLoaded,
  GlobSyntaxError,
  isCaseSensitive,
  loadGlobs,
  type PathMatcher,
} from "./glob.ts";
export {
  comparePaths,
  isWalkOrder,
  type KeyOrder,
  keyOrder,
  type RootKey,
  rootsOrder,
} from "./order.ts";
export {
  depthLimit,
  EVERY_FILE,
  type Filter,
  type Position,
  type SearchRequest,
  type Sort,
  type SortKey,
  SORTS,
  type Start,
  TIME_FIELDS,
  type TimeField,
  withTimeSpent,
} from "./request.ts";
export { formatTime, parseDateTime } from "./time.ts";
export { type Switch, TOOL_WORDS, type Words } from "./words.ts";
export {
  localTime,
  type Period,
  periodBounds,
  PERIODS,
  serverTimeZone,
  withinStart,
  zonedTime,
} from "./window.ts";
