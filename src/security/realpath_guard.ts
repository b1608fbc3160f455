/**
 * The realpath checks of layer 1 (contract §6, §8): the start path, and every
 * directory before it is read, must really lie inside the root.
 *
 * Deno's permissions (layer 2) check paths as written and do not resolve links, so
 * these checks are what stops a link inside a root from leading out of it.
 *
 * @module
 */
import { symlinkEscape } from "../errors.ts";
import type { FsPort } from "../ports/mod.ts";
import { type Guard, strictGuard } from "./guard.ts";
import { hostRules } from "./path_guard.ts";

/** Where a start path really is, and whether it is a real directory. */
export interface ResolvedStart {
  /** Its folder's real path joined with its own name: a link stays a link. */
  abs: string;
  isDirectory: boolean;
}

/**
 * Resolves the folders of `root/startPath` one component at a time; each one's real
 * path must stay inside the root, so a link out of the root and another back in is
 * refused too. The last component is not followed (contract §8): a link there is the
 * start itself, reported as a file and never descended into.
 *
 * @throws {ToolError} `SymlinkEscapeDetected`; `Deno.errors.*` from the file system.
 */
export function resolveStart(
  fs: FsPort,
  root: { path: string; realPath: string },
  startPath: string,
  guard: Guard = strictGuard,
): ResolvedStart {
  const segments = startPath === "" ? [] : startPath.split("/");
  const last = segments.pop();
  let lexical = root.path;
  let real = root.realPath;
  for (const segment of segments) {
    lexical = hostRules.join(lexical, segment);
    real = fs.realPath(lexical);
    if (!guard.inside(root.realPath, real)) throw symlinkEscape(startPath);
  }
  const abs = last === undefined ? real : hostRules.join(real, last);
  const info = fs.lstat(abs);
  // The root itself is never a match (contract §6): one that is no longer a real folder
  // (replaced by a link, or by a file) is not scanned as if it were an entry.
  if (last === undefined && (info.isSymlink || !info.isDirectory)) {
    if (info.isSymlink) throw symlinkEscape(startPath);
    throw new Deno.errors.NotFound("the root is not a folder");
  }
  return { abs, isDirectory: info.isDirectory };
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
