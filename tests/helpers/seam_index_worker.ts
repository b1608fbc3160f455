/**
 * An index worker whose index reads the disk through a {@linkcode TestSeam} given in its
 * own URL (`?seam=<JSON>`, see `seamIndexWorkerUrl`): a slow or stuck disk under the live
 * index. Test-only.
 *
 * @module
 */
import { answerIndexScans, type IndexWorkerScope } from "../../src/index/answer/index_loop.ts";
import { seamTools, type TestSeam } from "./seam.ts";

const seam = JSON.parse(new URL(import.meta.url).searchParams.get("seam") ?? "{}") as TestSeam;
answerIndexScans(self as unknown as IndexWorkerScope, {
  base: seamTools(seam).fs,
  ...(seam.countBudget === undefined ? {} : { countBudget: seam.countBudget }),
});
