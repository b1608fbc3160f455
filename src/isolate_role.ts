/**
 * What this isolate loads at import, as main.ts says before it loads a mode's modules. The
 * server's own isolate (a session's, the command line's, a test's) loads picomatch and
 * `ignore` at import, for the checks and matching it makes at once; a worker loads them
 * when a call asks for them (query/glob.ts, walk/exclusion.ts). A service's isolate matches
 * nothing itself (its roots' workers do): told so, it never loads them, and so never
 * starts Deno's Node layer, about 4 MB of every service (docs/benchmarks.md).
 *
 * @module
 */

/** Whether this isolate loads picomatch and `ignore` at import. */
export const matchersAtImport = { now: !("WorkerGlobalScope" in globalThis) };
