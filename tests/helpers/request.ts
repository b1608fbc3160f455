/**
 * A whole-tree `SearchRequest` for tests that drive scanners directly, with what a test
 * needs changed.
 *
 * @module
 */
import { DEFAULT_LIMITS } from "../../src/config.ts";
import { EVERY_FILE, type SearchRequest } from "../../src/query/request.ts";

/** What a test may change: the root's real path, the start path, the order, limits. */
export interface RequestChanges {
  rootReal?: string;
  startPath?: string;
  order?: SearchRequest["order"];
  limit?: number;
  limits?: Partial<SearchRequest["limits"]>;
}

/** Every file below `rootPath`, in path order, with generous limits unless changed. */
export function searchRequest(rootPath: string, changes: RequestChanges = {}): SearchRequest {
  return {
    root: { path: rootPath, realPath: changes.rootReal ?? rootPath },
    start: { path: changes.startPath ?? "", recursive: true, maxDepth: null },
    filter: { ...EVERY_FILE, exclude: [] },
    order: changes.order ?? "path_asc",
    limit: changes.limit ?? 100,
    after: null,
    limits: {
      ...DEFAULT_LIMITS,
      maxFilesScanned: 1_000_000,
      maxDirectoriesScanned: 1_000_000,
      scanTimeoutMs: 60_000,
      ...changes.limits,
    },
  };
}
