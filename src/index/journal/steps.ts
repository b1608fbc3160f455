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

/**
 * Where an entry absent at `since` and present at `until` was renamed from: the last
 * rename into it in between, followed back while its source was itself renamed in
 * between, to a path present at `since` and absent at `until`; `null` if none.
 */
export function renamedFrom(
  entries: ReadonlyMap<string, Entry>,
  changed: Step[],
  since: number,
  until: number,
  kind: number,
): string | null {
  let move = changed.findLast((s) => s.from !== undefined);
  for (let hops = 0; move !== undefined && hops < 16; hops++) {
    const at = move.pos;
    const source = entries.get(move.from!);
    if (!source || stateAt(source, until) !== null) return null;
    // The same entry all along: not gone and made again before it moved (its removal may
    // come a batch before the move that explains it).
    const between = source.steps.filter((s) => s.pos > since && s.pos < at);
    const gone = between.findIndex((s) => s.image === null);
    if (gone >= 0 && between.slice(gone).some((s) => s.image !== null)) return null;
    const then = stateAt(source, since);
    if (then !== null) return then === "unknown" || then.kind === kind ? move.from! : null;
    move = source.steps.findLast((s) => s.pos > since && s.pos <= at && s.from !== undefined);
  }
  return null;
}
