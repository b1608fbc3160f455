/**
 * A scanner that runs scans in the calling thread, through any file-system port: fast,
 * for semantics and property tests of the engine. With `shares` > 1 it runs the shares
 * one after another and merges them, as the server's workers do in parallel (and, as
 * they do, path_asc whole, and whole again when the shares do not merge).
 *
 * @module
 */
import type { ScanOutcome } from "../../src/walk/collector.ts";
import { mergeJoint } from "../../src/walk/joint.ts";
import { isWalkOrder, type SearchRequest } from "../../src/query/mod.ts";
import { scan, type ScanTools } from "../../src/walk/scan.ts";
import { type RunOptions, type Scanner, shares } from "../../src/workers/scanner.ts";

/** Runs scans in-process. */
export class InlineScanner implements Scanner {
  readonly #tools: ScanTools;
  readonly #shares: number;

  constructor(tools: ScanTools, shares = 1) {
    this.#tools = tools;
    this.#shares = shares;
  }

  async run(request: SearchRequest, options: RunOptions = {}): Promise<ScanOutcome> {
    const count = isWalkOrder(request.order) ? 1 : this.#shares;
    return await this.#split(request, options, count) ??
      (await this.#split(request, options, 1))!;
  }

  async #split(request: SearchRequest, options: RunOptions, count: number) {
    const { onProgress, keepAll = 0, joined } = options;
    const outcomes: ScanOutcome[] = [];
    for (const [i, share] of shares(count).entries()) {
      const progress = i === 0 ? onProgress : undefined;
      const plan = { share, keepAll, ...(joined ? { joined } : {}) };
      outcomes.push(await scan(request, this.#tools, plan, progress));
    }
    return mergeJoint(outcomes, request, keepAll, joined);
  }

  close(): void {}
}
