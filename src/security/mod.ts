/**
 * Layer 1 of the sandbox (contract §13): the lexical rules for `path`, containment by
 * segments (on POSIX path rules of its own, posix_rules.ts, held to `node:path`'s), and the
 * realpath checks of the start path and of each folder before it is read.
 *
 * May import: ports, errors.ts.
 *
 * @module
 */
export { type Guard, strictGuard } from "./guard.ts";
export {
  comparisonKey,
  folderAbove,
  hostRules,
  isWithin,
  normalizeAbsolute,
  type PathRules,
} from "./path_guard.ts";
export {
  assertStillInside,
  LeftRootError,
  type ResolvedStart,
  resolveStart,
} from "./realpath_guard.ts";
export { absoluteOf, ancestors, normalizeRelativePath } from "./relative_path.ts";
