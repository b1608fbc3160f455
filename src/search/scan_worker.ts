/**
 * The scan worker's entry module: it runs {@linkcode scan} for each request it is
 * sent, with the Deno permissions its creator narrowed it to (DECISIONS §13 layer 2).
 *
 * Like `main.ts` for the process, this module acts when loaded: it is only ever
 * loaded as a worker.
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import { scanTools } from "./test_seam.ts";
import { scan } from "./scan.ts";
import type { ScanReply, ScanTask } from "./scan_protocol.ts";

const worker = self as unknown as {
  onmessage: ((event: MessageEvent<ScanTask>) => void | Promise<void>) | null;
  postMessage(message: ScanReply): void;
};

worker.onmessage = async (event) => {
  const { id, request, seam } = event.data;
  const { fs, clock, guard } = scanTools(seam);
  try {
    const outcome = await scan(fs, clock, request, guard, (progress) => {
      worker.postMessage({ id, type: "progress", ...progress });
    });
    worker.postMessage({ id, type: "done", outcome });
  } catch (err) {
    if (err instanceof ToolError) {
      worker.postMessage({ id, type: "error", error: err.toData() });
    } else {
      // Only the error's class name: its message may hold an absolute path.
      worker.postMessage({ id, type: "crash", kind: err instanceof Error ? err.name : "unknown" });
    }
  }
};
