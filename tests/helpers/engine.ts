/**
 * Runs the search engine in-process on a real tree: fast, for semantics and
 * property tests. The end-to-end tests cover the worker and the protocol.
 *
 * @module
 */
import { type Config, loadConfig } from "../../src/config.ts";
import { type Clock, systemClock } from "../../src/ports/clock.ts";
import { denoFs, type FsPort } from "../../src/ports/fs.ts";
import { Pager } from "../../src/paging/paging.ts";
import { ToolError } from "../../src/errors.ts";
import { searchByTime, type SearchOutput } from "../../src/search/search_by_time.ts";
import { strictGuard } from "../../src/security/guard.ts";
import type { Scanner } from "../../src/workers/scanner.ts";
import { InlineScanner } from "./inline_scanner.ts";

/** Options of {@linkcode engine}. */
export interface EngineOptions {
  /** Extra environment settings (MAX_FILES_SCANNED, ON_LIMIT, ...). */
  env?: Record<string, string>;
  fs?: FsPort;
  clock?: Clock;
  /** Serve time-sorted pages from snapshots, as the server does. Default true. */
  snapshots?: boolean;
  /** Split each scan into this many shares, as the server's workers do. Default 1. */
  shares?: number;
  /** Scan with this instead (e.g. a live index); `fs` and `shares` then do not apply. */
  scanner?: Scanner;
}

/** A search function bound to one root. */
export interface Engine {
  config: Config;
  /** One call; `signal` cancels it as a client would. */
  search(args: Record<string, unknown>, signal?: AbortSignal): Promise<SearchOutput>;
}

/** Binds the engine to `root`, configured as the server would be from `env`. */
export function engine(root: string, options: EngineOptions = {}): Engine {
  const env: Record<string, string> = { ALLOW_ROOTS: root, ...options.env };
  const config = loadConfig({ env: (name) => env[name] });
  const clock = options.clock ?? systemClock;
  const scanner = options.scanner ?? new InlineScanner(
    { fs: options.fs ?? denoFs, clock, guard: strictGuard },
    options.shares ?? 1,
  );
  const pager = new Pager({
    scanner,
    clock,
    ...(options.snapshots === false ? { snapshots: false } : {}),
  });
  const deps = { config, pager, clock };
  return {
    config,
    search: async (args, signal) => (await searchByTime(args, deps, signal)).output,
  };
}

/** Follows nextCursor to the end; returns every page. */
export async function allPages(
  e: Engine,
  args: Record<string, unknown>,
  maxPages = 10_000,
): Promise<SearchOutput[]> {
  const pages: SearchOutput[] = [];
  let cursor: string | null = null;
  do {
    const page: SearchOutput = await e.search(cursor === null ? args : { ...args, cursor });
    pages.push(page);
    cursor = page.nextCursor;
    if (pages.length > maxPages) throw new Error("paging did not end");
  } while (cursor !== null);
  return pages;
}

/** Every page of a query, or the code of the contract error it ended with. */
export async function pagesOrCode(e: Engine, args: Record<string, unknown>): Promise<unknown> {
  try {
    return await allPages(e, args);
  } catch (err) {
    if (err instanceof ToolError) return err.code;
    throw err;
  }
}

/**
 * Pages an index gave and pages a walk gave (or the errors they threw), without what
 * differs by nature (contract §18): the time taken, the counts of what was examined, and
 * `totalMatches` where the index did not count it (it is given when known; else a lower
 * bound, `matchesAtLeast`).
 */
export function alike(indexed: unknown, walked: unknown): [unknown, unknown] {
  if (!Array.isArray(indexed) || !Array.isArray(walked)) return [indexed, walked];
  const strip = (page: SearchOutput, i: number) => {
    // Where the index did not count, it says a lower bound instead (§11): not compared.
    const { totalMatches, matchesAtLeast: _bound, ...rest } = page.stats;
    const counted = indexed[i]?.stats?.totalMatches !== undefined;
    return {
      ...page,
      stats: {
        ...rest,
        ...(counted && totalMatches !== undefined ? { totalMatches } : {}),
        elapsedMs: 0,
        scannedFiles: 0,
        scannedDirectories: 0,
      },
    };
  };
  return [indexed.map(strip), walked.map(strip)];
}
