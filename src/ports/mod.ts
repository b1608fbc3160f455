/**
 * Ports: the file system and the clock, behind small interfaces, so that tests can pass
 * their own (a slow or failing disk, a clock that steps).
 *
 * May import: nothing of the project.
 *
 * @module
 */
export { type Clock, systemClock } from "./clock.ts";
export { denoFs, type FsPort } from "./fs.ts";
