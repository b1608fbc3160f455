/**
 * The memory of roots whose scan hung inside the file system (contract §19): a hang is
 * remembered for a while, and later answers on the same root say so. One memory serves
 * every way a root is scanned (plain walks and the live index), so a hang on one is
 * told on the other.
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import { type Clock, systemClock } from "../ports/mod.ts";
import type { ScanOutcome } from "../walk/mod.ts";

/** Options of {@linkcode HungRoots}. */
export interface HungRootsOptions {
  /** How long a root whose scan hung is remembered. Default 10 minutes. */
  rememberMs?: number;
  /** Default the system clock. */
  clock?: Clock;
}

/** Roots whose scan hung, with when. */
export class HungRoots {
  readonly #at = new Map<string, number>();
  readonly #rememberMs: number;
  readonly #clock: Clock;

  constructor(options: HungRootsOptions = {}) {
    this.#rememberMs = options.rememberMs ?? 600_000;
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * Runs one scan of `rootPath`: remembers it if it hangs (a page answered from its last
   * boundary, or `TimeoutExceeded`), and marks its outcome if an earlier one did.
   */
  async track(rootPath: string, run: () => Promise<ScanOutcome>): Promise<ScanOutcome> {
    const before = this.#recently(rootPath);
    try {
      const outcome = await run();
      if (outcome.hung === "now") this.#at.set(rootPath, this.#clock.now());
      else if (before) outcome.hung = "before";
      return outcome;
    } catch (err) {
      if (err instanceof ToolError && err.code === "TimeoutExceeded") {
        this.#at.set(rootPath, this.#clock.now());
      }
      throw err;
    }
  }

  #recently(rootPath: string): boolean {
    const at = this.#at.get(rootPath);
    if (at === undefined) return false;
    if (this.#clock.now() - at < this.#rememberMs) return true;
    this.#at.delete(rootPath);
    return false;
  }
}
