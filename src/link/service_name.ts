/**
 * How a root's service is named (contract §28, §28a): by the build and a hash of the root's
 * real path and the index settings, so that sessions of one build and settings find one
 * service by the root alone, and no path appears in a socket's name or on a command line.
 * Here, not in `wire/`, because the link worker loads `wire/` and `node:crypto` would cost
 * it some megabytes.
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * The name of a root's service: the build, then a hash of its real path and settings (the
 * socket's name, and the service's on its command line: never the path itself).
 */
export function serviceName(
  build: string,
  rootReal: string,
  settings: Record<string, unknown>,
): string {
  const text = JSON.stringify([rootReal, settings]);
  const hex = createHash("sha256").update(text).digest("hex").slice(0, 16);
  return `${build.replace(/[^0-9A-Za-z.+-]/g, "_")}-${hex}`;
}
