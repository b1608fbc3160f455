/**
 * Reading one start-up setting from the environment: a whole number, one of a few
 * words, a list of globs. A bad value is a {@linkcode ConfigError} naming the variable.
 *
 * @module
 */
import { compileGlob, GlobSyntaxError } from "./query/glob.ts";

/** A bad start-up setting; its message is the one stderr line `main.ts` prints. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Reads one environment variable. */
type Env = (name: string) => string | undefined;

/** One of `choices` (the first is the default). */
export function readChoice<T extends string>(
  env: Env,
  name: string,
  choices: readonly [T, ...T[]],
): T {
  const raw = (env(name) ?? "").trim();
  if (raw === "") return choices[0];
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  const quoted = choices.map((c) => `'${c}'`);
  const listed = quoted.length > 2
    ? `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`
    : quoted.join(" or ");
  throw new ConfigError(`${name} must be ${listed}, not '${raw}'.`);
}

/** A whole number of at least `min` (`fallback` when unset). */
export function readInteger(
  env: Env,
  name: string,
  min: number,
  fallback: number,
): number {
  const raw = (env(name) ?? "").trim();
  if (raw === "") return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new ConfigError(`${name} must be a whole number >= ${min}, not '${raw}'.`);
  }
  return value;
}

/** A duration: whole seconds, or a whole number with `s`, `m`, `h` or `d` (`fallback` ms when unset). */
export function readDuration(env: Env, name: string, fallback: number, least = 1000): number {
  const raw = (env(name) ?? "").trim();
  if (raw === "") return fallback;
  const m = /^(\d+)\s*([smhd]?)$/.exec(raw);
  const unit = { "": 1, s: 1, m: 60, h: 3600, d: 86_400 }[m?.[2] ?? ""]!;
  const ms = m ? Number(m[1]) * unit * 1000 : NaN;
  if (!Number.isSafeInteger(ms) || ms < least) {
    throw new ConfigError(`${name} must be a duration such as 3600, 90m, 24h or 7d, not '${raw}'.`);
  }
  return ms;
}

/** Globs separated by `;`, each checked like a call's `glob` (contract §9, §17). */
export function readGlobs(env: Env, name: string): string[] {
  const globs = (env(name) ?? "").split(";").map((s) => s.trim()).filter((s) => s !== "");
  for (const pattern of globs) {
    const problem = globProblem(pattern);
    if (problem) throw new ConfigError(`${name} entry '${pattern}': ${problem}`);
  }
  return globs;
}

/** Why a glob cannot be used, or null. */
function globProblem(pattern: string): string | null {
  if (pattern.length > 1024) return "longer than 1024 characters.";
  try {
    compileGlob(pattern);
    return null;
  } catch (err) {
    if (err instanceof GlobSyntaxError) return err.message.replace("'glob' ", "it ");
    throw err;
  }
}
