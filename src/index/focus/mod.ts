/**
 * What a focused scan of the index is handed (contract §18, §26): the focus of a windowed
 * or time-ordered request and the cut that narrows it to what can still change the page
 * (focus.ts), what a held listing hands out under them (hand_out.ts), and the matches the
 * cut leaves out, counted from memory where the index alone can tell them (exact_drops.ts),
 * or a whole window's, from the root's files in time order (time_order.ts).
 *
 * May import: index/store, walk, query, security.
 *
 * @module
 */
export {
  allOutside,
  countWindow,
  type Dropped,
  type Focus,
  focusOf,
  narrowToCursor,
  narrowToWorst,
  outside,
  pageOf,
  uncounted,
  withCount,
  withDrops,
} from "./focus.ts";
export { mayDiffer, noneDropped } from "./exact_drops.ts";
export { handOut } from "./hand_out.ts";
export {
  keepOrder,
  pageFolders,
  timeOrderBytes,
  windowCount,
  windowCountable,
} from "./time_order.ts";
export type { OrderWindow, PageAsk, PageFolders, WindowCount } from "./order_window.ts";
