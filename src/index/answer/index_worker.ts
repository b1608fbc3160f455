/**
 * A root's index worker (contract §18): it answers the root's scans from the live index
 * (index_loop.ts), reading misses and checking answers on the real file system.
 * Permissions: reading the roots only (contract §13, layer 2).
 *
 * Acts when loaded: only ever loaded as a worker.
 *
 * @module
 */
import { denoFs } from "../../ports/mod.ts";
import { answerIndexScans, type IndexWorkerScope } from "./index_loop.ts";

answerIndexScans(self as unknown as IndexWorkerScope, { base: denoFs });
