/**
 * A scanner that runs scans in the calling thread, through any file-system port: fast,
 * for semantics and property tests of the engine. With `shares` > 1 it runs the shares
 * one after another and merges them, as the server's workers do in parallel.
 *
 * @module
 */
import { mergeShares, type ScanOutcome } from "../../src/walk/collector.ts";
import type { SearchRequest } from "../../src/query/request.ts";
import { scan, type ScanProgress, type ScanTools } from "../../src/walk/scan.ts";
import { type Scanner, shareRequests } from "../../src/workers/scanner.ts";

/** Runs scans in-process. */
export class InlineScanner implements Scanner {
  readonly #tools: ScanTools;
  readonly #shares: number;

  constructor(tools: ScanTools, shares = 1) {
    this.#tools = tools;
    this.#shares = shares;
  }

  async run(
    request: SearchRequest,
    _signal?: AbortSignal,
    onProgress?: (progress: ScanProgress) => void,
  ): Promise<ScanOutcome> {
    const outcomes: ScanOutcome[] = [];
    for (const [i, part] of shareRequests(request, this.#shares).entries()) {
      outcomes.push(await scan(part, this.#tools, i === 0 ? onProgress : undefined));
    }
    return mergeShares(outcomes, request);
  }

  close(): void {}
}
