/**
 * A root's watch (contract §18): the private folder its barrier's cookies are written in,
 * the plan of what it watches (never a link out of the root), the watch worker that runs
 * the runtime's `Deno.watchFs` and passes barriers, the folders it holds again where the
 * runtime dropped their watch (and the links inside the root that make it drop them), what
 * the server holds of that worker, and their messages (what a change says).
 *
 * May import: index, workers, security.
 *
 * @module
 */
export { DEFAULT_QUEUE_LIMIT, kernelQueueLimit } from "./cookies.ts";
export {
  cookiesFolder,
  makePrivateFolder,
  type PrivateFolder,
  removePrivateFolder,
} from "./private_folder.ts";
export { OPENED_FOLDER, RootWatch, SPECIAL_REPLAN } from "./root_watch.ts";
export type { Change, LagNews, ReadFromDisk, UnseenMove } from "./watch_messages.ts";
export { writeFailure } from "./watch_messages.ts";
export { MOST_STUCK, Stalls, stuckReason } from "./stalls.ts";
export { isSpecial } from "./watch_plan.ts";
