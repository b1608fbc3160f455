/**
 * The messages between the server and its scan workers.
 *
 * @module
 */
import type { ToolErrorData } from "../errors.ts";
import type { Fault } from "./fs_port.ts";
import type { ScanOutcome, ScanRequest } from "./scan.ts";

/** Test-only changes to a worker's behaviour; never set in production. */
export interface TestSeam {
  /** Replace the clock with one that steps this many ms per reading (deterministic time-outs). */
  clockStepMs?: number;
  /** Make file-system calls on these absolute paths fail. */
  faults?: Fault[];
  /** Switch off layer 1 (lexical and realpath checks) to show that layer 2 holds alone. */
  disableGuard?: boolean;
}

/** Server to worker: run one scan. */
export interface ScanTask {
  id: number;
  request: ScanRequest;
  seam?: TestSeam;
}

/** Worker to server: how the scan ended. */
export type ScanReply =
  | { id: number; type: "done"; outcome: ScanOutcome }
  | { id: number; type: "error"; error: ToolErrorData }
  | { id: number; type: "crash"; kind: string };
