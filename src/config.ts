/**
 * Start-up configuration from environment variables (contract §2, defaults §14).
 *
 * @module
 */
import {
  comparisonKey,
  hostRules,
  normalizeAbsolute,
  type PathRules,
} from "./security/path_guard.ts";
import { ConfigError, readChoice, readDuration, readGlobs, readInteger } from "./config_values.ts";

export { ConfigError };

/** An allowed root: its normalized absolute path and its real path (links resolved). */
export interface Root {
  path: string;
  realPath: string;
}

/** What happens when a scan limit is reached (contract §11). */
export type OnLimit = "partial" | "error";

/** Per-call scan limits. */
export interface Limits {
  maxFilesScanned: number;
  maxDirectoriesScanned: number;
  scanTimeoutMs: number;
  /** The cap for `maxDepth`, and the depth limit when it is omitted. */
  maxDepth: number;
  onLimit: OnLimit;
}

/** How tools are named in `tools/list` (contract §15). */
export type ToolNames = "dotted" | "underscore";

/** The server's whole configuration. */
export interface Config {
  roots: Root[];
  defaultRoot: Root;
  limits: Limits;
  /** `TOOL_NAMES`: `fs.search_by_time` (dotted) or `fs_search_by_time` (underscore). */
  toolNames: ToolNames;
  /** `MAX_RESULT_CHARS`: the most characters a result's JSON may have (contract §16). */
  maxResultChars: number;
  /** `EXCLUDE`: globs every call leaves out, whatever it asks (contract §17). */
  exclude: string[];
  /** `RESPECT_IGNORE_FILES`: the default of `respectIgnoreFiles`. */
  respectIgnoreFiles: boolean;
  /** `INDEX` and `INDEX_MAX_ENTRIES` (contract §18). */
  index: { mode: IndexMode; maxEntries: number };
  /** `CHANGES_MAX_ENTRIES` and `CHANGES_MAX_AGE`: each root's journal's bounds (§24). */
  changes: { maxEntries: number; maxAgeMs: number };
  /**
   * `SHARED_INDEX` and `SHARED_INDEX_IDLE` (contract §28): whether each root's index is one
   * service shared by every session, and how long it outlives its last session (0: not).
   */
  shared: { on: boolean; idleMs: number };
}

/**
 * `INDEX` (contract §18): `on` starts each root's index with the server, `lazy` on the
 * first call that touches the root, `off` walks every call.
 */
export type IndexMode = "on" | "lazy" | "off";

/** The default of `INDEX_MAX_ENTRIES`. */
export const DEFAULT_INDEX_MAX_ENTRIES = 5_000_000;

/** The default of `SHARED_INDEX_IDLE`: 15 minutes. */
export const DEFAULT_SHARED_IDLE_MS = 15 * 60_000;

/** The defaults of `CHANGES_MAX_ENTRIES` and `CHANGES_MAX_AGE` (contract §24). */
export const DEFAULT_CHANGES = Object.freeze({ maxEntries: 1_000_000, maxAgeMs: 7 * 86_400_000 });

/** The default of `MAX_RESULT_CHARS`, and its least value. */
export const DEFAULT_MAX_RESULT_CHARS = 40_000;
const MIN_MAX_RESULT_CHARS = 4_000;

/** The defaults of contract §14. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxFilesScanned: 2_000_000,
  maxDirectoriesScanned: 500_000,
  scanTimeoutMs: 15_000,
  maxDepth: 256,
  onLimit: "partial",
});

/** Every environment variable the server reads. */
export const ENV_VARIABLES = [
  "ALLOW_ROOTS",
  "DEFAULT_ROOT",
  "MAX_FILES_SCANNED",
  "MAX_DIRECTORIES_SCANNED",
  "SCAN_TIMEOUT_MS",
  "MAX_DEPTH",
  "ON_LIMIT",
  "TOOL_NAMES",
  "MAX_RESULT_CHARS",
  "EXCLUDE",
  "RESPECT_IGNORE_FILES",
  "INDEX",
  "INDEX_MAX_ENTRIES",
  "CHANGES_MAX_ENTRIES",
  "CHANGES_MAX_AGE",
  "SHARED_INDEX",
  "SHARED_INDEX_IDLE",
] as const;

/** Where {@linkcode loadConfig} reads from; the defaults are the real ones. */
export interface ConfigSources {
  /** Reads one environment variable. */
  env: (name: string) => string | undefined;
  /** Roots given as arguments (`serve DIR...`, contract §20); then `ALLOW_ROOTS` must be unset. */
  roots?: string[];
  /** Resolves links; throws like `Deno.realPathSync`. */
  realPath?: (p: string) => string;
  /** Says whether a path is a directory, following links; throws like `Deno.statSync`. */
  isDirectory?: (p: string) => boolean;
  rules?: PathRules;
}

/**
 * Reads and checks the configuration.
 *
 * @throws {ConfigError} naming the variable, for a missing or empty `ALLOW_ROOTS`, a
 * root that does not exist or is not a directory, a `DEFAULT_ROOT` not among the roots,
 * or a bad number.
 *
 * @example
 * ```ts
 * const config = loadConfig({ env: (n) => ({ ALLOW_ROOTS: "/srv/docs" })[n] });
 * config.defaultRoot.path; // "/srv/docs"
 * ```
 */
export function loadConfig(sources: ConfigSources): Config {
  const rules = sources.rules ?? hostRules;
  const realPath = sources.realPath ?? Deno.realPathSync;
  const isDirectory = sources.isDirectory ?? ((p: string) => Deno.statSync(p).isDirectory);

  const raw = sources.env("ALLOW_ROOTS") ?? "";
  const fromEnv = raw.split(/[;,]/).map((s) => s.trim()).filter((s) => s !== "");
  const fromArgs = sources.roots ?? [];
  if (fromArgs.length > 0 && fromEnv.length > 0) {
    throw new ConfigError(
      "folders were given both as arguments and in ALLOW_ROOTS: give them one way only.",
    );
  }
  const items = fromArgs.length > 0 ? fromArgs : fromEnv;
  const entry = fromArgs.length > 0 ? "root" : "ALLOW_ROOTS entry";
  if (items.length === 0) {
    throw new ConfigError(
      "ALLOW_ROOTS is missing or empty: set it to one or more folders separated by ';' or ',' (or give the folders as arguments: serve DIR...).",
    );
  }
  const roots: Root[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const normalized = normalizeAbsolute(item, rules);
    let real: string;
    try {
      if (!isDirectory(normalized)) {
        throw new ConfigError(`${entry} '${item}' is not a directory.`);
      }
      real = normalizeAbsolute(realPath(normalized), rules);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      if (err instanceof Deno.errors.NotCapable) {
        throw new ConfigError(
          `${entry} '${item}' is not covered by --allow-read: add it to --allow-read (or give --allow-read without a list).`,
        );
      }
      const why = err instanceof Deno.errors.NotFound ? "does not exist" : "cannot be read";
      throw new ConfigError(`${entry} '${item}' ${why}.`);
    }
    const key = comparisonKey(normalized, rules);
    if (seen.has(key)) continue;
    seen.add(key);
    roots.push({ path: normalized, realPath: real });
  }

  const defaultRaw = (sources.env("DEFAULT_ROOT") ?? "").trim();
  let defaultRoot = roots[0]!;
  if (defaultRaw !== "") {
    const key = comparisonKey(normalizeAbsolute(defaultRaw, rules), rules);
    const found = roots.find((r) => comparisonKey(r.path, rules) === key);
    if (!found) {
      throw new ConfigError(`DEFAULT_ROOT '${defaultRaw}' is not one of the allowed folders.`);
    }
    defaultRoot = found;
  }

  const limits: Limits = {
    maxFilesScanned: readInteger(
      sources.env,
      "MAX_FILES_SCANNED",
      1,
      DEFAULT_LIMITS.maxFilesScanned,
    ),
    maxDirectoriesScanned: readInteger(
      sources.env,
      "MAX_DIRECTORIES_SCANNED",
      1,
      DEFAULT_LIMITS.maxDirectoriesScanned,
    ),
    scanTimeoutMs: readInteger(sources.env, "SCAN_TIMEOUT_MS", 1, DEFAULT_LIMITS.scanTimeoutMs),
    maxDepth: readInteger(sources.env, "MAX_DEPTH", 0, DEFAULT_LIMITS.maxDepth),
    onLimit: readChoice(sources.env, "ON_LIMIT", ["partial", "error"] as const),
  };
  const toolNames = readChoice(sources.env, "TOOL_NAMES", ["dotted", "underscore"] as const);
  const maxResultChars = readInteger(
    sources.env,
    "MAX_RESULT_CHARS",
    MIN_MAX_RESULT_CHARS,
    DEFAULT_MAX_RESULT_CHARS,
  );
  const exclude = readGlobs(sources.env, "EXCLUDE");
  const respectIgnoreFiles =
    readChoice(sources.env, "RESPECT_IGNORE_FILES", ["false", "true"] as const) === "true";
  const index = {
    mode: readChoice(sources.env, "INDEX", ["on", "lazy", "off"] as const),
    maxEntries: readInteger(sources.env, "INDEX_MAX_ENTRIES", 1, DEFAULT_INDEX_MAX_ENTRIES),
  };
  const changes = {
    maxEntries: readInteger(sources.env, "CHANGES_MAX_ENTRIES", 1, DEFAULT_CHANGES.maxEntries),
    maxAgeMs: readDuration(sources.env, "CHANGES_MAX_AGE", DEFAULT_CHANGES.maxAgeMs),
  };
  const shared = {
    on: readChoice(sources.env, "SHARED_INDEX", ["on", "off"] as const) === "on",
    idleMs: readDuration(sources.env, "SHARED_INDEX_IDLE", DEFAULT_SHARED_IDLE_MS, 0),
  };
  return {
    roots,
    defaultRoot,
    limits,
    toolNames,
    maxResultChars,
    exclude,
    respectIgnoreFiles,
    index,
    changes,
    shared,
  };
}

/**
 * What to say when the process may not read some of {@linkcode ENV_VARIABLES}
 * (`denied`): an error if `ALLOW_ROOTS` is among them (the server cannot start), else a
 * warning that the others are ignored. Both name the flag to add.
 */
export function envPermissionProblem(
  denied: readonly string[],
  rootsFromArgs = false,
): { fatal: boolean; message: string } | null {
  if (rootsFromArgs) denied = denied.filter((name) => name !== "ALLOW_ROOTS");
  if (denied.length === 0) return null;
  const flag = `--allow-env=${ENV_VARIABLES.join(",")}`;
  if (denied.includes("ALLOW_ROOTS")) {
    return {
      fatal: true,
      message:
        `the process may not read the ALLOW_ROOTS environment variable: add ${flag} to the deno run flags.`,
    };
  }
  return {
    fatal: false,
    message: `warning: --allow-env does not cover ${
      denied.join(", ")
    }, so they are ignored: use ${flag}.`,
  };
}

/** Every path the scan workers must be able to read: each root and its real path. */
export function readablePaths(config: Config): string[] {
  return [...new Set(config.roots.flatMap((r) => [r.path, r.realPath]))];
}

/**
 * The allowed root that the request's `root` names after normalization, if any.
 * It must be absolute; a subfolder of a root is not a root.
 */
export function findRoot(
  roots: readonly Root[],
  candidate: string,
  rules: PathRules = hostRules,
): Root | undefined {
  if (!rules.isAbsolute(candidate)) return undefined;
  const key = comparisonKey(normalizeAbsolute(candidate, rules), rules);
  return roots.find((r) => comparisonKey(r.path, rules) === key);
}
