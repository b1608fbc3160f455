/**
 * A live index over one test tree, as the server makes one (real watch and index workers
 * unless told otherwise, and a private folder for its barrier cookies, removed when it is
 * closed), and the wait for it to be ready.
 *
 * @module
 */
import { LiveIndex } from "../../src/index/live_index.ts";
import type { LiveIndexOptions } from "../../src/index/live_index_options.ts";
import { makePrivateFolder, removePrivateFolder } from "../../src/index/watch/private_folder.ts";
import type { Root } from "../../src/config.ts";
import type { Scanner } from "../../src/workers/scanner.ts";
import { WorkerScanner } from "../../src/workers/scanner.ts";
import { until } from "./until.ts";

/**
 * Windows indexes no root (its watch gives no order a barrier could rest on,
 * docs/index.md): tests that need an index skip there, and say so once.
 */
export const NO_INDEX: boolean = Deno.build.os === "windows";
if (NO_INDEX) console.log("index tests skipped: Windows indexes no root (docs/index.md)");

/** A live index that removes its private folder when it is closed. */
class TestIndex extends LiveIndex {
  readonly #folder: string | null;

  constructor(walk: Scanner, roots: Root[], options: LiveIndexOptions) {
    super(walk, roots, options);
    this.#folder = options.cookies.path;
  }

  override close(): void {
    super.close();
    if (this.#folder !== null) removePrivateFolder(this.#folder);
  }
}

/** A live index of the root at `root` (a real path), silent, with `options` on top. */
export function liveIndex(root: string, options: Partial<LiveIndexOptions> = {}): LiveIndex {
  return new TestIndex(new WorkerScanner({ readPaths: [root] }), [{ path: root, realPath: root }], {
    readPaths: [root],
    maxEntries: 1_000_000,
    log: () => {},
    cookies: options.cookies ?? makePrivateFolder([root]),
    ...options,
  });
}

/** An eager live index of `root`, once it is ready; `options` on top. */
export async function readyIndex(
  root: string,
  options: Partial<LiveIndexOptions> = {},
): Promise<LiveIndex> {
  const index = liveIndex(root, { eager: true, ...options });
  try {
    await until(() => index.status()[0]!.state === "ready", "the index");
  } catch (err) {
    index.close();
    throw err;
  }
  return index;
}
