/**
 * Every worker entry module the server spawns, in one list (contract §18): each spawn
 * site takes its module from here, the compile script passes each one to
 * `deno compile --include` (compile does not find worker modules by itself), the start-up
 * permission check covers each, and a test fails when a module given to `new Worker` is
 * missing from it.
 *
 * @module
 */

/** The worker entry modules, by role. */
export const WORKER_MODULES: Readonly<
  Record<"scan" | "index" | "watch" | "fill" | "link", URL>
> = Object
  .freeze({
    /** A scan worker: one scan, or one share of it, on the real file system. */
    scan: new URL("./workers/scan_worker.ts", import.meta.url),
    /** A root's index worker: scans answered from the live index. */
    index: new URL("./index/answer/index_worker.ts", import.meta.url),
    /** A root's watch worker: `Deno.watchFs` on the root, changes sent on in batches. */
    watch: new URL("./index/watch/watch_worker.ts", import.meta.url),
    /** A root's fill helper: the other share of a fill, fed to the index worker. */
    fill: new URL("./index/fill/fill_worker.ts", import.meta.url),
    /** The session's link to its roots' index services: their sockets, and their start. */
    link: new URL("./link/link_worker.ts", import.meta.url),
  });
