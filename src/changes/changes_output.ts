/**
 * What a `fs.changes_since` call answers (contract §24, §24a): its `structuredContent`
 * before its words, each change as listed, and the facts its words say besides.
 *
 * @module
 */
import type { ChangeRecord } from "../index/mod.ts";
import type { ChangesRequest } from "./changes_arguments.ts";

/** One entry of `changes` in the outputSchema. */
export interface ChangeOutput {
  path: string;
  change: ChangeRecord["change"];
  isDirectory: boolean;
  sizeBytes: number | null;
  modifiedAt: string | null;
  createdAt: string | null;
  previousPath?: string;
  /** A folder moved or removed as a whole: how many of the changes below it it stands for. */
  entries?: number;
}

/** `structuredContent` of a changes call, before its words (contract §24). */
export interface ChangesOutput {
  /** The root answered for, as `fs.list_roots` lists it (contract §24a). */
  root: string;
  clock: string;
  since: string;
  freshInstance: boolean;
  complete: boolean;
  reason?: string;
  changes: ChangeOutput[];
  nextCursor: string | null;
  stats: {
    returned: number;
    elapsedMs: number;
    /** Changes of the whole answer, every page, when known. */
    totalChanges?: number;
    /** Changes left out inside version-control folders (contract §27). */
    excluded?: number;
    /** A fresh instance's scan: whether a limit cut it short. */
    truncated?: boolean;
  };
}

/** What the words of a changes call say besides its output. */
export interface ChangesFacts {
  /** Changes of each kind, every page (from the journal; the summary says them). */
  counts?: Record<ChangeRecord["change"], number>;
  /** The page holds fewer changes than `limit` to fit (contract §16). */
  cutForSize: boolean;
  /** Changes left out inside version-control folders; `atLeast`: a lower bound. */
  vcs: { count: number; atLeast: boolean };
  /** Changes listed one by one that lie in folders moved or removed as a whole. */
  inWholeFolders: number;
}

/** A changes call's answer, with what its words need. */
export interface ChangesResult {
  output: ChangesOutput;
  request: ChangesRequest;
  facts: ChangesFacts;
}
