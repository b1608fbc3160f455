/**
 * The two calls that search (contract §3): `fs.search_by_time` and `fs.changes_since`,
 * each answered with its summary line and structured result, its refusals as `isError`
 * results, its progress sent before its answer, and one log line; and every answer's
 * clock for each root it speaks of (contract §24).
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import type { CallToolResult, ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import { ToolError } from "../errors.ts";
import { BUILDING_NOTE_ROOM } from "../presentation.ts";
import { wordsRoom } from "../result_words.ts";
import type { Answers } from "../index/mod.ts";
import type { ScanProgress } from "../walk/mod.ts";
import { searchByTime } from "../search/mod.ts";
import { changesSince, changesStructured, rootClock } from "../changes/mod.ts";
import { errorResult, structuredSuccess, successResult } from "./result.ts";
import { callLine, refusalLine } from "./logging.ts";
import type { ServerDeps } from "./server.ts";

/** A `tools/call`'s parameters, as the SDK has checked them. */
export interface ToolCallParams {
  name: string;
  arguments?: unknown;
  _meta?: { progressToken?: string | number };
}

/** The parts of the SDK's request-handler context we use. */
export interface HandlerExtra {
  signal: AbortSignal;
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

/**
 * Sends `notifications/progress` for a call that asked for it (contract §12).
 * `flush()` waits until every one is sent: a client drops progress that arrives after
 * the call's answer, so the answer waits for them.
 */
function progressReporter(token: string | number | undefined, extra: HandlerExtra): {
  report?: (progress: ScanProgress) => void;
  flush(): Promise<unknown>;
} {
  if (token === undefined) return { flush: () => Promise.resolve() };
  const sent: Promise<void>[] = [];
  return {
    report: ({ scanned, files, directories }) => {
      sent.push(
        extra.sendNotification({
          method: "notifications/progress",
          params: {
            progressToken: token,
            progress: scanned,
            message: `Scanning: ${files} files and ${directories} folders so far.`,
          },
        }).catch(() => {}), // the client may be gone; the call's own answer reports that
      );
    },
    flush: () => Promise.all(sent),
  };
}

/** Answers a `fs.search_by_time` call. */
export async function searchCall(
  params: ToolCallParams,
  extra: HandlerExtra,
  deps: ServerDeps,
  offAnswers: Answers | null,
): Promise<CallToolResult> {
  const { log } = deps;
  const started = deps.clock.now();
  const progress = progressReporter(params._meta?.progressToken, extra);
  // When a cancel arrives, to say how soon the scan stopped after it (contract §12).
  let cancelledAt = 0;
  extra.signal.addEventListener("abort", () => (cancelledAt = deps.clock.now()), {
    once: true,
  });
  // Who answered (contract §18): the live index says; without one, every call walks.
  let answeredBy = deps.indexStatus ? "a walk" : "a walk (INDEX=off)";
  try {
    const result = await searchByTime(
      params.arguments,
      {
        ...deps,
        maxResultChars: deps.config.maxResultChars,
        wordsRoom: (request) =>
          wordsRoom(request, deps.clock.now()) + clocksRoom(deps) +
          (deps.indexStatus ? BUILDING_NOTE_ROOM : 0),
      },
      extra.signal,
      progress.report,
      (by) => (answeredBy = by),
    );
    await progress.flush();
    const roots = result.roots ?? [result.request.root.path];
    const walked = /^a walk \((.*)\)$/s.exec(answeredBy)?.[1];
    if (!result.roots && walked !== undefined) result.walkedWhy = walked;
    for (const root of roots) offAnswers?.walk(root, "INDEX=off");
    if (result.roots) {
      result.output.clocks = roots.map((root) => ({ root, clock: rootClock(deps, root, started) }));
    } else result.output.clock = rootClock(deps, roots[0]!, started);
    log.log(
      "info",
      callLine({
        tool: "search",
        root: result.roots ? `every root (${roots.length})` : roots[0]!,
        answeredBy,
        count: result.output.matches.length,
        more: result.output.nextCursor !== null,
        ms: deps.clock.now() - started,
      }),
    );
    return successResult(result, deps.clock.now());
  } catch (err) {
    if (err instanceof ToolError) {
      log.log("info", refusalLine("search", err));
      return errorResult(err, deps.clock.now());
    }
    if (extra.signal.aborted) {
      const ms = deps.clock.now() - cancelledAt;
      log.log("info", `search cancelled: its scan stopped ${ms} ms after the cancel.`);
      throw err;
    }
    log.log("error", `search failed: ${err instanceof Error ? err.name : "unknown"}`);
    return errorResult(
      new ToolError(
        "IOFailure",
        "The search failed unexpectedly.",
        "Retry in a moment, or narrow 'path'.",
      ),
      deps.clock.now(),
    );
  }
}

/** The most characters the clocks may add to a search's answer (one per root at most). */
function clocksRoom(deps: ServerDeps): number {
  return deps.config.roots.reduce((sum, r) => sum + r.path.length + 100, 16);
}

/** Answers a `fs.changes_since` call. */
export async function changesCall(
  params: ToolCallParams,
  extra: HandlerExtra,
  deps: ServerDeps,
): Promise<CallToolResult> {
  const { log } = deps;
  try {
    const result = await changesSince(params.arguments, {
      ...deps,
      journals: deps.journals ?? null,
      maxResultChars: deps.config.maxResultChars,
      wordsRoom: 1200,
    }, extra.signal);
    const { structured, line } = changesStructured(result, deps.clock.now());
    const { output } = result;
    log.log(
      "info",
      callLine({
        tool: "changes",
        root: output.root,
        answeredBy: output.freshInstance
          ? `a fresh instance (${output.reason ?? "no journal"})`
          : "the journal",
        count: output.changes.length,
        more: output.nextCursor !== null,
        ms: output.stats.elapsedMs,
      }),
    );
    return structuredSuccess(structured, line);
  } catch (err) {
    if (err instanceof ToolError) {
      log.log("info", refusalLine("changes", err));
      return errorResult(err, deps.clock.now());
    }
    if (extra.signal.aborted) throw err;
    log.log("error", `changes failed: ${err instanceof Error ? err.name : "unknown"}`);
    return errorResult(
      new ToolError(
        "IOFailure",
        "The call failed unexpectedly.",
        "Retry in a moment, or narrow 'path'.",
      ),
      deps.clock.now(),
    );
  }
}
