/**
 * The net change of each entry a journal touched between two positions (contract §24):
 * created, removed, modified, or renamed when it was moved from an entry present then and
 * gone now (each source once).
 *
 * @module
 */
import { sameImage } from "./image.ts";
import { type Entry, type NetChange, stateAt, type Step } from "./steps.ts";

/**
 * The net change of every entry between positions `since` and `until` (unsorted). One
 * pass over the entries a move went into (what was renamed, each source once), then one
 * over every entry, skipping at its last step those not touched since `since`.
 */
export function netChanges(
  entries: ReadonlyMap<string, Entry>,
  movedInto: Iterable<string>,
  since: number,
  until: number,
): NetChange[] {
  const renames = new Map<string, string>();
  const claimed = new Set<string>();
  for (const path of movedInto) {
    const entry = entries.get(path)!;
    const after = stateAt(entry, until);
    if (after === null || after === "unknown" || stateAt(entry, since) !== null) continue;
    const changed = entry.steps.filter((s) => s.pos > since && s.pos <= until);
    const from = renamedFrom(entries, changed, since, until, after.kind);
    // A source is renamed once: any other move from it was of something made after.
    if (from === null || claimed.has(from)) continue;
    claimed.add(from);
    renames.set(path, from);
  }
  const out: NetChange[] = [];
  for (const [path, entry] of entries) {
    const steps = entry.steps;
    let i = steps.length - 1;
    if (i < 0 || steps[i]!.pos <= since) continue;
    while (i >= 0 && steps[i]!.pos > until) i--;
    if (i < 0 || steps[i]!.pos <= since) continue; // no step in (since, until]
    const after = steps[i]!.image;
    let written = false;
    for (; i >= 0 && steps[i]!.pos > since; i--) written ||= steps[i]!.written;
    const before = i >= 0 ? steps[i]!.image : entry.base;
    if (after === null) {
      if (before !== null && !claimed.has(path)) {
        out.push({ path, change: "removed", image: before });
      }
    } else if (before === null) {
      const from = renames.get(path);
      out.push(
        from === undefined
          ? { path, change: "created", image: after }
          : { path, change: "renamed", image: after, previousPath: from },
      );
    } else if (
      before === "unknown" || written || !sameImage(before, after)
    ) out.push({ path, change: "modified", image: after });
  }
  return out;
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
