/**
 * What one batch did to one entry, as a journal takes it (contract §24), and the net change
 * of one entry between two positions, as a journal gives it.
 *
 * @module
 */
import type { Image } from "./image.ts";

/** What one batch did to one entry. */
export interface Touch {
  /** Root-relative, `/`-separated. */
  path: string;
  /** As the index held it before the batch; "unknown" when it held no stat of it. */
  before: Image | "unknown";
  /** Its kind before the batch when `before` is "unknown" but the kind is known. */
  kind?: number;
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
  /** Its kind (of that image), where known: an image not known may still know it. */
  kind: number | null;
  previousPath?: string;
}
