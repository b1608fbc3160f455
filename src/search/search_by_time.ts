/**
 * The `fs.search_by_time` use case: one root (one_root.ts), or every root (`root: "*"`,
 * all_roots.ts, which searches each with one_root.ts).
 *
 * @module
 */
import type { ScanProgress } from "../walk/mod.ts";
import { searchAllRoots } from "./all_roots.ts";
import { type SearchDeps, searchOneRoot, type SearchResult } from "./one_root.ts";

export type { MatchOutput, SearchDeps, SearchOutput, SearchResult } from "./one_root.ts";

/**
 * Runs one search.
 *
 * @throws {ToolError} for every tool execution error of contract §5 and §11.
 */
export async function searchByTime(
  args: unknown,
  deps: SearchDeps,
  signal?: AbortSignal,
  onProgress?: (progress: ScanProgress) => void,
  /** Told who answered (contract §18: the index, a walk and why, a snapshot). */
  onAnswered?: (by: string) => void,
): Promise<SearchResult> {
  const all = typeof args === "object" && args !== null &&
    (args as { root?: unknown }).root === "*";
  const search = all ? searchAllRoots : searchOneRoot;
  return await search(args as Record<string, unknown>, deps, signal, onProgress, onAnswered);
}
