/**
 * The messages between the server and its scan workers, and the worker's side of them.
 *
 * @module
 */
import { ToolError, type ToolErrorData } from "../errors.ts";
import type { ScanOutcome } from "./collector.ts";
import type { SearchRequest } from "./request.ts";
import { scan, type ScanProgress, type ScanTools } from "./scan.ts";

/** Server to worker: run one scan. */
export interface ScanTask {
  id: number;
  request: SearchRequest;
}

/** Worker to server: the scan started, a progress report, or how the scan ended. */
export type ScanReply =
  | { id: number; type: "started" }
  | { id: number; type: "progress"; progress: ScanProgress }
  | { id: number; type: "done"; outcome: ScanOutcome }
  | { id: number; type: "error"; error: ToolErrorData }
  | { id: number; type: "crash"; kind: string };

/** The global scope of a worker, as far as scans use it. */
export interface WorkerScope {
  onmessage: ((event: MessageEvent<ScanTask>) => void | Promise<void>) | null;
  postMessage(message: ScanReply): void;
}

/**
 * Answers every {@linkcode ScanTask} sent to this worker by scanning with `tools`.
 *
 * @example
 * ```ts
 * // A worker's entry module:
 * answerScans(self as unknown as WorkerScope, { fs: denoFs, clock: systemClock, guard: strictGuard });
 * ```
 */
export function answerScans(scope: WorkerScope, tools: ScanTools): void {
  scope.onmessage = async (event) => {
    const { id, request } = event.data;
    scope.postMessage({ id, type: "started" });
    try {
      const outcome = await scan(request, tools, (progress) => {
        scope.postMessage({ id, type: "progress", progress });
      });
      scope.postMessage({ id, type: "done", outcome });
    } catch (err) {
      if (err instanceof ToolError) {
        scope.postMessage({ id, type: "error", error: err.toData() });
      } else {
        // Only the error's class name: its message may hold an absolute path.
        scope.postMessage({ id, type: "crash", kind: err instanceof Error ? err.name : "unknown" });
      }
    }
  };
}
