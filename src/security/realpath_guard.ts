/**
 * The realpath checks of layer 1 (DECISIONS §6, §8): the start path, and every
 * directory before it is read, must really lie inside the root.
 *
 * Deno's permissions (layer 2) check paths as written and do not resolve links, so
 * these checks are what stops a link inside a root from leading out of it.
 *
 * @module
 */
import { symlinkEscape } from "../errors.ts";
import type { FsPort } from "../search/fs_port.ts";
import { type Guard, strictGuard } from "./guard.ts";
import { hostRules } from "./path_guard.ts";

/** The real path of a start path, and whether it is a directory. */
export interface ResolvedStart {
  real: string;
  isDirectory: boolean;
}

/**
 * Resolves `root/startRel` one component at a time; each component's real path must
 * stay inside the root, so a link out of the root and another back in is refused too.
 *
 * @throws {ToolError} `SymlinkEscapeDetected`; `Deno.errors.*` from the file system.
 */
export function resolveStart(
  fs: FsPort,
  root: { path: string; realPath: string },
  startRel: string,
  guard: Guard = strictGuard,
): ResolvedStart {
  let lexical = root.path;
  let real = root.realPath;
  for (const segment of startRel === "" ? [] : startRel.split("/")) {
    lexical = hostRules.join(lexical, segment);
    real = fs.realPath(lexical);
    if (!guard.inside(root.realPath, real)) throw symlinkEscape(startRel);
  }
  return { real, isDirectory: fs.lstat(real).isDirectory };
}

/** Thrown for a directory whose real path has left the root since it was listed. */
export class LeftRootError extends Error {
  constructor() {
    super("directory left the root");
    this.name = "LeftRootError";
  }
}

/**
 * Checks, right before a directory is read, that its real path is still inside the
 * root (it may have been swapped for a link since its parent was listed).
 *
 * @throws {LeftRootError} when it is not; `Deno.errors.*` from the file system.
 */
export function assertStillInside(
  fs: FsPort,
  rootReal: string,
  dirAbs: string,
  guard: Guard = strictGuard,
): void {
  if (!guard.inside(rootReal, fs.realPath(dirAbs))) throw new LeftRootError();
}
