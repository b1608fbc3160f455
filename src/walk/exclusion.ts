/**
 * What a search leaves out (contract §17): entries matching an `exclude` glob (the
 * call's and the server's `EXCLUDE`), and, with `respectIgnoreFiles`, what git would
 * ignore: `.gitignore` and `.ignore` files from the root down (each for its own folder,
 * `.ignore` over `.gitignore`, deeper files over shallower ones), the root's
 * `.git/info/exclude`, and `.git` itself. An excluded folder is not descended into.
 *
 * Ignore files are read only when they are regular files (never through a link, never a
 * FIFO), with the `ignore` package for git's pattern rules.
 *
 * @module
 */
import type ignoreOf from "ignore";
import { isFsError } from "../errors.ts";
import { matchersAtImport } from "../isolate_role.ts";
import type { FsPort } from "../ports/mod.ts";
import { absoluteOf, ancestors, hostRules } from "../security/mod.ts";
import {
  compileGlob,
  type Filter,
  globsLoaded,
  isCaseSensitive,
  loadGlobs,
  type PathMatcher,
} from "../query/mod.ts";

/** The `ignore` package, once loaded (at once in the server's own isolate). */
let ignore: typeof ignoreOf | null = null;

async function loadIgnore(): Promise<void> {
  ignore ??= (await import("ignore")).default as typeof ignoreOf;
}

if (matchersAtImport.now) await loadIgnore(); // the server's own isolate (isolate_role.ts)

/**
 * Loads into a worker what `filter` is matched with (picomatch for its globs, `ignore` for
 * ignore files), when it is not loaded yet; `null` when nothing is to load. A worker loads
 * them only when a call asks for them: an npm package starts Deno's Node layer in its
 * isolate, about 4 MB each, and every root has its own workers (contract §28a).
 */
export function matchersFor(
  filter: Pick<Filter, "glob" | "exclude" | "respectIgnoreFiles">,
): Promise<void> | null {
  const globs = !globsLoaded() && (filter.glob !== null || filter.exclude.length > 0);
  const rules = ignore === null && filter.respectIgnoreFiles;
  if (!globs && !rules) return null;
  return Promise.all([globs ? loadGlobs() : null, rules ? loadIgnore() : null]).then(() => {});
}

/** The ignore files of one folder, in the order their rules are added: `.ignore` wins. */
const IGNORE_FILES = [".gitignore", ".ignore"] as const;
/**
 * The most an ignore file may hold (contract §17): 1 MiB. Real ones are far smaller (the
 * largest template of github/gitignore is under 10 KB); past it a file is not used.
 */
export const IGNORE_FILE_MAX_BYTES = 1024 * 1024;

/** Decides, during a walk, which entries are left out. */
export interface Exclusion {
  /** Whether a file of this name in a listing is one the exclusion wants to read. */
  wantsFile(name: string): boolean;
  /**
   * Called with each folder's listing before any of its entries are asked about:
   * `files` are the names of the regular files among them that {@linkcode wantsFile}.
   */
  enter(folderPath: string, folderAbs: string, files: string[]): void;
  /** Whether the entry at this root-relative path is left out. */
  excludes(path: string, isDirectory: boolean): boolean;
  /**
   * Ignore files not used so far: not a regular file once checked at read time (a link,
   * a FIFO), larger than {@linkcode IGNORE_FILE_MAX_BYTES}, or unreadable (contract §17).
   */
  readonly refused: number;
  /**
   * Before a walk that starts below the root: reads the ignore files of the folders
   * above the start (the walk lists only the start and below; each folder once, however
   * many starts are asked about), and says whether the start itself, or a folder above
   * it, is left out.
   */
  excludesStart(startPath: string, startIsDirectory: boolean): boolean;
}

/**
 * What one `exclude` glob leaves out (contract §17, §26): a glob with no `/` is a name at
 * any depth, as in `.gitignore`, fd and ripgrep (`node_modules` is `**\/node_modules`); one
 * with a `/` is anchored at the root. Case as `glob` (§9: smart case unless forced).
 *
 * @example
 * ```ts
 * excludeMatcher("node_modules", null)("app/node_modules"); // true
 * excludeMatcher("build/out", null)("app/build/out"); // false: anchored at the root
 * ```
 */
export function excludeMatcher(glob: string, caseSensitive: boolean | null): PathMatcher {
  const anchored = glob.includes("/") ? glob : `**/${glob}`;
  return compileGlob(anchored, isCaseSensitive(glob, caseSensitive));
}

/**
 * The exclusion a filter asks for, or `null` when it asks for none.
 *
 * @param rootAbs The root's real path, where `.git/info/exclude` is read.
 */
export function compileExclusion(
  filter: Pick<Filter, "exclude" | "respectIgnoreFiles" | "caseSensitive">,
  fs: FsPort,
  rootAbs: string,
): Exclusion | null {
  const globs = filter.exclude.map((glob) => excludeMatcher(glob, filter.caseSensitive));
  if (globs.length === 0 && !filter.respectIgnoreFiles) return null;
  const byGlob = (path: string) => globs.some((match) => match(path));
  if (!filter.respectIgnoreFiles) {
    return {
      wantsFile: () => false,
      enter: () => {},
      refused: 0,
      excludes: byGlob,
      excludesStart: (start, isDirectory) => startExcluded(start, isDirectory, byGlob),
    };
  }
  // One rule list for the whole tree, in git's order of precedence (the last match
  // wins): .git/info/exclude, then each folder's .gitignore and .ignore as the walk
  // meets them, top down, their patterns rewritten to hold from the root.
  if (ignore === null) {
    throw new Error("ignore files matched before matchersFor (in a worker, or a service)");
  }
  const rules = ignore({ ignorecase: false });
  const sep = hostRules.sep;
  let refused = 0;
  const entered = new Set<string>();
  const addFile = (folderPath: string, abs: string) => {
    try {
      rules.add(fromRoot(folderPath, fs.readTextFile(abs, IGNORE_FILE_MAX_BYTES)));
    } catch (err) {
      if (!isFsError(err)) throw err;
      refused++; // not used for this call, and counted as skipped
    }
  };
  const infoExclude = [rootAbs, ".git", "info", "exclude"].join(sep);
  if (isRegularFile(fs, infoExclude)) addFile("", infoExclude);
  const exclusion: Exclusion = {
    get refused() {
      return refused;
    },
    wantsFile: (name) => (IGNORE_FILES as readonly string[]).includes(name),
    enter(folderPath, folderAbs, files) {
      for (const name of IGNORE_FILES) {
        if (files.includes(name)) addFile(folderPath, folderAbs + sep + name);
      }
    },
    excludes(path, isDirectory) {
      if (byGlob(path)) return true;
      if (path === ".git" || path.endsWith("/.git")) return true;
      return rules.ignores(isDirectory ? path + "/" : path);
    },
    excludesStart(startPath, startIsDirectory) {
      const folders = startPath === "" ? [] : ["", ...ancestors(startPath)];
      for (const folder of folders) {
        if (entered.has(folder)) continue; // asked again (of each change, contract §24)
        entered.add(folder);
        const abs = absoluteOf(rootAbs, folder);
        const files = IGNORE_FILES.filter((name) => isRegularFile(fs, abs + sep + name));
        exclusion.enter(folder, abs, files);
      }
      return startExcluded(startPath, startIsDirectory, exclusion.excludes);
    },
  };
  return exclusion;
}

/**
 * The patterns of an ignore file in `folderPath`, rewritten to hold from the root: a
 * pattern with a `/` before its end is anchored to that folder, any other one matches
 * at any depth below it (git's rules).
 */
export function fromRoot(folderPath: string, text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (folderPath === "") return lines;
  const base = folderPath.replace(/[\\*?[\]!#]/g, (c) => "\\" + c);
  return lines.flatMap((line) => {
    if (line.trim() === "" || line.startsWith("#")) return [];
    const negated = line.startsWith("!");
    const pattern = negated ? line.slice(1) : line;
    const anchored = pattern.slice(0, -1).includes("/");
    const rest = pattern.startsWith("/") ? pattern.slice(1) : pattern;
    return [(negated ? "!" : "") + base + (anchored ? "/" : "/**/") + rest];
  });
}

/** Whether the start, or a folder above it, is left out. */
function startExcluded(
  startPath: string,
  startIsDirectory: boolean,
  excludes: (path: string, isDirectory: boolean) => boolean,
): boolean {
  if (startPath === "") return false;
  return ancestors(startPath).some((folder) => excludes(folder, true)) ||
    excludes(startPath, startIsDirectory);
}

/** Whether `abs` is a regular file (not a link, a folder or a FIFO). */
function isRegularFile(fs: FsPort, abs: string): boolean {
  try {
    return fs.lstat(abs).isFile;
  } catch (err) {
    if (isFsError(err)) return false;
    throw err;
  }
}
