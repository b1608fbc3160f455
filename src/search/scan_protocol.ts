/**
 * The messages between the server and its scan workers.
 *
 * @module
 */
import type { ToolErrorData } from "../errors.ts";
import type { TestSeam } from "./test_seam.ts";
import type { ScanOutcome, ScanRequest } from "./scan.ts";

/** Server to worker: run one scan. */
export interface ScanTask {
  id: number;
  request: ScanRequest;
  seam?: TestSeam;
}

/** Worker to server: a progress report, or how the scan ended. */
export type ScanReply =
  | { id: number; type: "progress"; scanned: number; files: number; directories: number }
  | { id: number; type: "done"; outcome: ScanOutcome }
  | { id: number; type: "error"; error: ToolErrorData }
  | { id: number; type: "crash"; kind: string };
