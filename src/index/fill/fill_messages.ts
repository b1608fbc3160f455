/**
 * The messages between the server and a root's fill helper (contract §18), besides its
 * scan task.
 *
 * @module
 */

/** Server to helper: the ring to write into, before the scan. */
export interface FeedCommand {
  type: "feed";
  ring: SharedArrayBuffer;
}
