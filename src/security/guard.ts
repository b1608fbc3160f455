/**
 * Layer 1 of the sandbox (contract §13) as one object: the lexical `path` rules and the
 * realpath containment check. The server runs with {@linkcode strictGuard}; the
 * interface lets a test pass a guard of its own, to show that layer 2 (Deno's
 * permissions) still refuses a read outside the roots when layer 1 is gone.
 *
 * @module
 */
import { isWithin } from "./path_guard.ts";
import { normalizeRelativePath } from "./relative_path.ts";

/** Layer 1's checks. */
export interface Guard {
  /** Checks and normalizes a request `path` (throws a ToolError when refused). */
  relativePath(input: string): string;
  /** Whether `real` (a real path) lies inside `rootReal`. */
  inside(rootReal: string, real: string): boolean;
}

/** The checks the server runs with. */
export const strictGuard: Guard = {
  relativePath: normalizeRelativePath,
  inside: (rootReal, real) => isWithin(rootReal, real),
};
