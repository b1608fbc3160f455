/**
 * A scan worker that reads through a {@linkcode TestSeam} given in its own URL
 * (`?seam=<JSON>`, see `seamWorkerUrl`). Test-only.
 *
 * @module
 */
import { answerScans, type WorkerScope } from "../../src/workers/worker_protocol.ts";
import { seamTools, type TestSeam } from "./seam.ts";

const seam = JSON.parse(new URL(import.meta.url).searchParams.get("seam") ?? "{}") as TestSeam;
answerScans(self as unknown as WorkerScope, seamTools(seam));
