/**
 * The index's storage (contract §18, docs/index.md "Memory"): every entry of a root in
 * typed columns outside the heap (kind, times, size, the folder below), each folder's
 * names in one string, folder records, the bounds of times below each folder, growth of
 * typed arrays, the sort of a time order, and what it all costs. It knows nothing of
 * events, watches or scans.
 *
 * May import: security.
 *
 * @module
 */
export { DIR, type EntryColumns, kindOf, setKind, UNKNOWN_TIME } from "./entry_columns.ts";
export { birthTime, entriesOf, infoOf, recordInfo, reusedInfo } from "./entry_info.ts";
export { FolderTree } from "./folder_tree.ts";
export { namesBytes } from "./memory_cost.ts";
export { boundBelow } from "./subtree_times.ts";
export { type Column, grown } from "./typed_growth.ts";
export { PathTable, ROOT_NODE } from "./path_table.ts";
export { firstAbove, firstAtOrAbove } from "./sorted_column.ts";
export { sortByTime } from "./time_sort.ts";
