/**
 * The Deno flags the server runs with, in one place: `deno.json`'s `start` task, the
 * README's client configuration, the tests and the benchmark all use these (a test
 * checks that they agree).
 *
 * @module
 */
import { ENV_VARIABLES } from "./config.ts";

/**
 * V8 heap settings for every isolate (the server and its scan workers). A small young
 * generation and a capped old one keep the peak memory of a million-entry scan under
 * 200 MB (docs/benchmarks.md); the live data of a scan is far smaller.
 */
export const V8_FLAGS = "--v8-flags=--max-old-space-size=128,--max-semi-space-size=4";

/** `--allow-env` with exactly the variables the server reads. */
export const ALLOW_ENV = `--allow-env=${ENV_VARIABLES.join(",")}`;
