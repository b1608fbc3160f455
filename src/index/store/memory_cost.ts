/**
 * What the live index costs in memory (contract §18's budget; measured figures in
 * docs/index.md): the heap its names take, estimated from above (what the budget counts:
 * the heap is what a worker must never run out of), and the bytes of its typed arrays,
 * which live outside the V8 heap and are bounded by `INDEX_MAX_ENTRIES`.
 *
 * @module
 */

/** Bytes of the entry columns per entry: 4 (name end) + 1 (kind) + 3 × 8 (times, size) + 4 (folder). */
export const ENTRY_COLUMN_BYTES = 33;
/**
 * Bytes outside the heap per folder record: first entry, count, time, device, inode,
 * state, parent, slot (41), and what is below it: four time bounds, four more of the files
 * alone, two counts, whether they hold (81), whether it changed since a mark (1).
 */
export const RECORD_BYTES = 123;
/** The heap a folder's string of names costs besides its characters (header, slot, share of growth). */
export const NAMES_STRING_BYTES = 48;

/** And per name: a margin measured on trees of big folders (docs/index.md). */
export const NAME_BYTES = 2;

/** A character V8 cannot keep in one byte (it keeps a string of Latin-1 ones in one byte each). */
const WIDE = /[^\0-\xff]/;

/**
 * What one folder's names cost the heap, held as one string: `names` as read, or that
 * string and how many names it holds.
 */
export function namesBytes(names: readonly string[] | string, count = names.length): number {
  let chars = 0;
  let wide = false;
  for (const name of typeof names === "string" ? [names] : names) {
    chars += name.length;
    wide ||= WIDE.test(name);
  }
  return NAMES_STRING_BYTES + (wide ? 2 : 1) * chars + NAME_BYTES * count;
}
