/**
 * What a journal keeps of one entry (contract §24): its image before its first kept step,
 * and its image after each batch that touched it; what one batch did to one entry; and
 * the net change of one entry between two positions.
 *
 * @module
 */
import type { Image } from "./image.ts";

/** One entry's image after one batch. */
export interface Step {
  pos: number;
  image: Image;
  /** Named by an event that writes (not only its folder's listing changed). */
  written: boolean;
  /** Renamed here from this path (one rename event named both). */
  from?: string;
}

/** One touched entry: its image before its first kept step ("unknown": not held then). */
export interface Entry {
  base: Image | "unknown";
  steps: Step[];
}

/** What one batch did to one entry. */
export interface Touch {
  /** Root-relative, `/`-separated. */
  path: string;
  /** As the index held it before the batch; "unknown" when it held no stat of it. */
  before: Image | "unknown";
  after: Image;
  written: boolean;
  from?: string;
}

/** The net change of one entry between two positions (contract §24). */
export interface NetChange {
  path: string;
  change: "created" | "modified" | "removed" | "renamed";
  /** Its image at the later position; for a removed entry, at the earlier one. */
  image: Image | "unknown";
  previousPath?: string;
}

/** An entry's image at position `pos`: its last step's at or before it, else its base. */
export function stateAt(entry: Entry, pos: number): Image | "unknown" {
  const step = entry.steps.findLast((s) => s.pos <= pos);
  return step ? step.image : entry.base;
}
