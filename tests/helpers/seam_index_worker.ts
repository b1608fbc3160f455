/**
 * An index worker whose index reads the disk through a {@linkcode TestSeam} given in its
 * own URL (`?seam=<JSON>`, see `seamIndexWorkerUrl`): a slow or stuck disk under the live
 * index; with `scansChannel`, each scan it is given told on that channel. Test-only.
 *
 * @module
 */
import { answerIndexScans, type IndexWorkerScope } from "../../src/index/answer/index_loop.ts";
import type { ScanTask } from "../../src/workers/mod.ts";
import { seamTools, type TestSeam } from "./seam.ts";

const seam = JSON.parse(new URL(import.meta.url).searchParams.get("seam") ?? "{}") as TestSeam;
const scope = self as unknown as IndexWorkerScope;
answerIndexScans(scope, {
  base: seamTools(seam).fs,
  ...(seam.countBudget === undefined ? {} : { countBudget: seam.countBudget }),
});

if (seam.scansChannel !== undefined) {
  const channel = new BroadcastChannel(seam.scansChannel);
  const answer = scope.onmessage!;
  scope.onmessage = (event) => {
    if ("request" in event.data) {
      const { order, limit, filter } = (event.data as ScanTask).request;
      channel.postMessage({ order, limit, from: filter.from, to: filter.to });
    }
    answer.call(scope, event);
  };
}
