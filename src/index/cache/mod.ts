/**
 * What a root's index holds and how it is kept true (contract §18): the held tree, which
 * forgets what change events name; the one check of a folder on disk; the background
 * check of folders and entries; the work done ahead of the next question when things are
 * quiet; and the held tree served to scans as a file-system port, handing out only what a
 * focused scan's window may need.
 *
 * May import: index/focus, index/store, index/watch, walk, query, security, ports.
 *
 * @module
 */
export { folderChange, type FolderStamp } from "./folder_check.ts";
export { ANSWER_SWEEP_FOLDERS, FolderSweep } from "./folder_sweep.ts";
export { BackgroundCheck, CHECK_CORE_SHARE } from "./background_check.ts";
export { type HeldImage, HeldView } from "./held_view.ts";
export { LaggingFolders } from "./lagging_folders.ts";
export { QuietTurn } from "./quiet_turn.ts";
export { realFolder } from "./real_folder.ts";
export { TreeCache } from "./tree_cache.ts";
