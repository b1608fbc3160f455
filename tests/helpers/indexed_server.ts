/**
 * The real server with its live index (INDEX=on, the real watcher), as the "never stale"
 * tests drive it: started on a tree, waited for until `ready`, and asked questions whose
 * answers are compared with a fresh walk of the same tree, with who answered read from
 * `fs.list_roots`.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { SearchOutput } from "../../src/search/search_by_time.ts";
import { engine } from "./engine.ts";
import { connect, type Connection, rootIndex, type RootIndexInfo } from "./server.ts";
import type { TestSeam } from "./seam.ts";
import { until } from "./until.ts";

/** A server whose first root is `root`, with its index ready. */
export interface IndexedServer {
  conn: Connection;
  /** The root's index now. */
  info(): Promise<RootIndexInfo>;
  /** One call's matches, from the server. */
  matches(args: Record<string, unknown>): Promise<SearchOutput["matches"]>;
  /**
   * Asks `args` of the server and of a fresh walk, asserts both give the same matches,
   * and returns who answered the server's call ("index", or the walk's reason).
   */
  same(args: Record<string, unknown>): Promise<string>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts the server on `root` with `env` on top, and waits until its index is ready. */
export async function indexedServer(
  root: string,
  env: Record<string, string> = {},
  seam?: TestSeam,
): Promise<IndexedServer> {
  // A seam's server keeps the index off unless told (seam_main.ts).
  const conn = await connect({ ALLOW_ROOTS: root, ...(seam ? { INDEX: "on" } : {}), ...env }, seam);
  const info = () => rootIndex(conn);
  const fresh = engine(root, { env: { INDEX: "off" } });
  const matches = async (args: Record<string, unknown>) =>
    ((await conn.search(args)).structuredContent as unknown as SearchOutput).matches;
  let last: unknown = null;
  try {
    await until(async () => (last = await info()).state === "ready", "the index");
  } catch (err) {
    const logs = conn.stderrTail();
    await conn.close();
    // Where it stood, and what the server logged: why it never got ready.
    throw new Error(`${(err as Error).message}: ${JSON.stringify(last)}\n${logs}`);
  }
  return {
    conn,
    info,
    matches,
    same: async (args) => {
      const before = (await info()).answers;
      const got = (await conn.search(args)).structuredContent as unknown as SearchOutput;
      const after = await info();
      const walk = (await fresh.search(args)).matches;
      // The server cuts a page for the client's size; the in-process walk here does not.
      assert.ok(
        got.nextCursor === null || got.matches.length >= walk.length,
        `${
          JSON.stringify(args)
        }: the server's page was cut (${got.matches.length} of ${walk.length}` +
          " matches, more to come): too large to compare here, or entries missing",
      );
      assert.deepEqual(got.matches, walk, JSON.stringify(args));
      if (!before || !after.answers) return "a server that does not say who answered";
      if (after.answers.index > before.index) return "index";
      return after.lastWalk ?? "a walk";
    },
    [Symbol.asyncDispose]: () => conn.close(),
  };
}

/**
 * Processes that keep both cores busy until disposed (once; again does nothing), so that
 * the watcher's thread and the server compete for them as on a loaded machine: two, or as
 * many as `TEST_CPU_HOGS` says (the races are also run with four: docs/benchmarks.md).
 */
export function cpuHogs(n = Number(Deno.env.get("TEST_CPU_HOGS") ?? 2)): AsyncDisposable {
  return untilDisposed(Array.from({ length: n }, () => "for (;;) {}"));
}

/**
 * Processes that write small files in `folder` as fast as they can until disposed (once),
 * so that the runtime's watcher always has more events to read.
 */
export function busyWriters(folder: string, n = 2): AsyncDisposable {
  const at = JSON.stringify(folder);
  return untilDisposed(
    Array.from(
      { length: n },
      (_, w) => `for (let i = 0;; i++) Deno.writeTextFileSync(${at} + "/w${w}-" + (i % 20), "x");`,
    ),
  );
}

/** One process per script, each run until disposed (once; again does nothing). */
function untilDisposed(scripts: string[]): AsyncDisposable {
  const children = scripts.map((script) =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", script],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn()
  );
  let stopped = false;
  return {
    [Symbol.asyncDispose]: async () => {
      if (stopped) return;
      stopped = true;
      for (const child of children) child.kill("SIGKILL");
      await Promise.all(children.map((c) => c.status));
    },
  };
}
