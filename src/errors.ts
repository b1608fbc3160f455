/**
 * The tool's error codes (contract §5, plus our `InvalidArgument` and
 * `PathNotFound`, contract §5) and the one place where file-system errors become codes.
 *
 * @module
 */

/** Every code a tool execution error can carry, spelled as in contract §5. */
export const ERROR_CODES = [
  "InvalidArgument",
  "InvalidDateTime",
  "InvalidRange",
  "InvalidEnum",
  "LimitOutOfRange",
  "GlobTooLong",
  "PathTooLong",
  "CursorTooLong",
  "MaxDepthOutOfRange",
  "RootNotAllowed",
  "PathNotRelative",
  "PathTraversalDetected",
  "SymlinkEscapeDetected",
  "AccessDenied",
  "PathNotFound",
  "CursorInvalid",
  "CursorVersionMismatch",
  "CursorSortMismatch",
  "ScanLimitExceeded",
  "TimeoutExceeded",
  "IOFailure",
] as const;

/** One of {@linkcode ERROR_CODES}. */
export type ErrorCode = typeof ERROR_CODES[number];

/** The plain data of a tool error; it crosses the worker boundary as is. */
export interface ToolErrorData {
  code: ErrorCode;
  /** One sentence saying what is wrong. Never an absolute path. */
  message: string;
  /** What the caller should change. */
  fix: string;
  /** Optional extra lines (counts, the offending value). Never an absolute path. */
  details?: string[];
}

/** A tool execution error: reported as an `isError` result, never as a protocol error. */
export class ToolError extends Error {
  readonly code: ErrorCode;
  readonly fix: string;
  readonly details: string[];

  constructor(code: ErrorCode, message: string, fix: string, details: string[] = []) {
    super(message);
    this.name = "ToolError";
    this.code = code;
    this.fix = fix;
    this.details = details;
  }

  /** The error as plain data, e.g. for `postMessage`. */
  toData(): ToolErrorData {
    return {
      code: this.code,
      message: this.message,
      fix: this.fix,
      ...(this.details.length > 0 ? { details: this.details } : {}),
    };
  }

  /** Rebuilds an error from {@linkcode ToolError.toData}'s output. */
  static fromData(data: ToolErrorData): ToolError {
    return new ToolError(data.code, data.message, data.fix, data.details ?? []);
  }
}

/** Whether `err` is one of the `Deno.errors.*` a file-system call throws. */
export function isFsError(err: unknown): err is Error {
  return err instanceof Error &&
    Object.values(Deno.errors).some((kind) => err instanceof kind);
}

/** Shows a root-relative path in a message: `.` for the root itself, quoted otherwise. */
export function showPath(relPath: string): string {
  return relPath === "" ? "the root" : `'${relPath}'`;
}

/**
 * Maps an error thrown by a Deno file-system call on the start path to our code.
 * `relPath` is the root-relative path the caller asked for; the thrown error's own
 * message (which holds the absolute path) is never used.
 *
 * @example
 * ```ts
 * try {
 *   Deno.lstatSync("/nope");
 * } catch (err) {
 *   const e = fromFsError(err, "nope"); // ToolError PathNotFound
 * }
 * ```
 */
export function fromFsError(
  err: unknown,
  relPath: string,
  /** Whether a root-relative path exists (to offer one a `~` path may have meant). */
  exists?: (path: string) => boolean,
): ToolError {
  const where = showPath(relPath);
  if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
    // A home folder written the shell's way is not expanded (contract §26): the same place
    // below the root, when a tail of the path names one (contract §23, §24a).
    const tails = relPath.startsWith("~")
      ? relPath.split("/").slice(1).map((_, i, parts) => parts.slice(i).join("/"))
      : [];
    const meant = exists ? tails.find((tail) => tail !== "" && exists(tail)) : undefined;
    return new ToolError(
      "PathNotFound",
      `The start path ${where} does not exist under the root.`,
      meant !== undefined
        ? `'path' is relative to the root and '~' is not expanded: set 'path' to ${
          JSON.stringify(meant)
        }, which exists.`
        : relPath.startsWith("~")
        ? "'path' is relative to the root, and '~' is not expanded: name the root as fs.list_roots lists it and give the path below it, e.g. 'Documents/2025', or omit 'path'."
        : "Pass a 'path' that exists, relative to the root (omit it to search the whole root).",
    );
  }
  if (
    err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotCapable
  ) {
    return new ToolError(
      "AccessDenied",
      `The start path ${where} cannot be read.`,
      "Choose a 'path' (or 'root') that this server's user may read.",
    );
  }
  if (err instanceof Deno.errors.FilesystemLoop) {
    return new ToolError(
      "PathNotFound",
      `The start path ${where} is a loop of symbolic links and leads nowhere.`,
      "Pass a 'path' that names a real file or folder under the root.",
    );
  }
  const kind = err instanceof Error ? err.name : "unknown error";
  return new ToolError(
    "IOFailure",
    `Reading ${where} failed unexpectedly (${kind}).`,
    "Retry in a moment, or narrow 'path'.",
  );
}

/** The error for a start path whose real location lies outside the root. */
export function symlinkEscape(relPath: string): ToolError {
  return new ToolError(
    "SymlinkEscapeDetected",
    `The start path ${showPath(relPath)} resolves through a link to a place outside the root.`,
    "Pass a 'path' that stays inside the root without following links out of it.",
  );
}
