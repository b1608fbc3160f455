/**
 * The walk engine: one scan (or one share of it) over a file-system port, in path order,
 * with the compiled filter (kind, glob, one lstat, the time window), excludes and ignore
 * files, and a collector that keeps exactly what a page needs (contract §7-§11, §17). It
 * runs wherever it is given a port: in a scan worker, or over the live index.
 *
 * May import: query, security, ports, config.ts, errors.ts, isolate_role.ts.
 *
 * @module
 */
export {
  type Collected,
  type EntryCounts,
  handedOn,
  mergeShares,
  type ScanOutcome,
} from "./collector.ts";
export { compileExclusion, matchersFor } from "./exclusion.ts";
export { compileFilter, type Match } from "./filter.ts";
export { UNDECODED } from "./read_listing.ts";
export {
  PLAIN,
  PROGRESS_INTERVAL_MS,
  scan,
  ScanCancelled,
  type ScanPlan,
  type ScanProgress,
  type ScanTools,
} from "./scan.ts";
export { type Share, WHOLE } from "./shares.ts";
export { TopK } from "./top_k.ts";
export { insideVcs, VCS_FOLDERS } from "./vcs.ts";
export { type JoinedRequest, jointKey, mergeJoint } from "./joint.ts";
export { type StopReason, type WalkStats } from "./walk.ts";
