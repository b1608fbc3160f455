/**
 * The options of a walk (walk.ts), in the manner of std's `WalkOptions`: all but where to
 * start optional, each default given with `@default` and applied once, when a walk starts.
 *
 * @module
 */
import type { Limits } from "../config.ts";
import { type Clock, systemClock } from "../ports/mod.ts";
import { type Guard, strictGuard } from "../security/mod.ts";
import type { Exclusion } from "./exclusion.ts";
import { type Share, WHOLE } from "./shares.ts";

/** Options of `walk` (walk.ts), in the manner of std's `WalkOptions`: all but where to start optional. */
export interface WalkOptions {
  /** Absolute path of the start: real, except that a last component that is a link stays one. */
  startAbs: string;
  /**
   * Root-relative path of the start (`""` for the root itself).
   *
   * @default {""}
   */
  startPath?: string;
  /**
   * Whether the start is a directory (else only the start itself can be visited).
   *
   * @default {true}
   */
  startIsDirectory?: boolean;
  /**
   * Whether the start itself is visited, at depth 0.
   *
   * @default {false}
   */
  visitStart?: boolean;
  /**
   * Deepest depth visited; directories at this depth are not read.
   *
   * @default {Infinity}
   */
  maxDepth?: number;
  /**
   * Real path of the root: a directory whose real path leaves it is skipped, not read.
   *
   * @default {startAbs}
   */
  rootReal?: string;
  /**
   * Layer 1's containment check.
   *
   * @default {strictGuard}
   */
  guard?: Guard;
  /**
   * Resume strictly after this path (a cursor's boundary); `null` for the start.
   *
   * @default {null}
   */
  boundary?: string | null;
  /**
   * Stop before visiting a file past `maxFilesScanned` files or reading a listing past
   * `maxDirectoriesScanned` listings, or once `scanTimeoutMs` have passed since `startedAt`.
   *
   * @default {no limit}
   */
  limits?: Pick<Limits, "maxFilesScanned" | "maxDirectoriesScanned" | "scanTimeoutMs">;
  /**
   * When the time limit counts from.
   *
   * @default {clock.now()}
   */
  startedAt?: number;
  /**
   * The clock of the time limit.
   *
   * @default {systemClock}
   */
  clock?: Clock;
  /**
   * What to leave out: such entries are not visited, such folders not descended into.
   *
   * @default {null}
   */
  exclusion?: Exclusion | null;
  /**
   * Which share of a split walk this is (shares.ts): every share reads the listings down
   * to `SHARED_DEPTH`; below, each folder is listed by one share only, its owner,
   * and each entry is visited by its owner.
   *
   * @default {WHOLE}
   */
  share?: Share;
}

/** The options with every default applied: done once, when a walk starts. */
export type Walking = Required<WalkOptions>;

const NO_LIMITS = {
  maxFilesScanned: Infinity,
  maxDirectoriesScanned: Infinity,
  scanTimeoutMs: Infinity,
};

export function withDefaults(options: WalkOptions): Walking {
  const clock = options.clock ?? systemClock;
  return {
    startAbs: options.startAbs,
    startPath: options.startPath ?? "",
    startIsDirectory: options.startIsDirectory ?? true,
    visitStart: options.visitStart ?? false,
    maxDepth: options.maxDepth ?? Infinity,
    rootReal: options.rootReal ?? options.startAbs,
    guard: options.guard ?? strictGuard,
    boundary: options.boundary ?? null,
    limits: options.limits ?? NO_LIMITS,
    startedAt: options.startedAt ?? clock.now(),
    clock,
    exclusion: options.exclusion ?? null,
    share: options.share ?? WHOLE,
  };
}
