/**
 * The query and its contract: the checks of the tool's arguments, the one `SearchRequest`
 * they make, its times, globs and orders, and cursors with the query hash (contract
 * §5-§10). Pure: no file system, no workers. The arguments' parsing (zod) is the sub-room
 * `query/arguments`, which no worker loads.
 *
 * May import: security, config.ts, errors.ts.
 *
 * @module
 */
export {
  CURSOR_VERSION,
  decodeCursor,
  decodeSetCursor,
  encodeCursor,
  encodePayload,
  encodeSetCursor,
  invalid as invalidCursor,
  parsePayload,
  queryHash,
  type SetPosition,
} from "./cursor.ts";
export { checkRoot, checkTime, invalidArgument } from "./checks.ts";
export { closestName, withinHint } from "./hints.ts";
export { compileGlob, GlobSyntaxError, isCaseSensitive, type PathMatcher } from "./glob.ts";
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
