/**
 * What a call's arguments are checked with and told (contract §5-§10, §23): the checks in
 * the contract's words, the closest known name, what an argument was meant as, and cursors
 * with the query hash. Kept out of `query/mod.ts`: they load fastest-levenshtein and
 * `node:crypto`, which would start Deno's Node layer in every worker that loads the query
 * (about 4 MB an isolate, contract §28a); only the server's own isolate loads these.
 *
 * May import: query, security, config.ts, errors.ts.
 *
 * @module
 */
export {
  checkEnum,
  checkGlob,
  checkLength,
  checkRoot,
  checkSize,
  checkTime,
  clash,
  invalidArgument,
} from "./checks.ts";
export { closestName } from "./closest_name.ts";
export {
  CURSOR_VERSION,
  decodeCursor,
  decodeSetCursor,
  encodeCursor,
  encodePayload,
  encodeSetCursor,
  invalid as invalidCursor,
  parsePayload,
  peekChain,
  queryHash,
  type SetPosition,
} from "./cursor.ts";
