/**
 * What a scan's outcome hands on (src/walk/collector.ts `handedOn`): a scan that ran to its
 * end leaves out its matches in walk order (only a truncated page is cut from them), and a
 * stopped one keeps them whole.
 */
import assert from "node:assert/strict";
import { handedOn, type ScanOutcome } from "../../src/walk/mod.ts";

const match = (path: string) => ({
  path,
  time: 1,
  isDirectory: false,
  sizeBytes: 0,
  modified: 1,
  created: 1,
});

function outcome(stopped: ScanOutcome["stopped"]): ScanOutcome {
  return {
    stopped,
    collected: {
      first: [match("b"), match("a")],
      walkPrefix: [match("a"), match("b")],
      all: null,
      allComplete: false,
      total: stopped === null ? 2 : null,
    },
    walk: { scannedDirectories: 1, scannedFiles: 2, skipped: 0, excluded: 0 },
    entries: { skipped: 0, unknownTime: 0, vcs: 0 },
  };
}

Deno.test("handedOn: a scan that ran to its end hands on no walk-order prefix", () => {
  const whole = outcome(null);
  const handed = handedOn(whole);
  assert.deepEqual(handed.collected.walkPrefix, []);
  assert.deepEqual(handed.collected.first, whole.collected.first);
  assert.equal(whole.collected.walkPrefix.length, 2, "the scan's own outcome is left as it was");
});

Deno.test("handedOn: a stopped scan keeps its walk-order prefix, its truncated page's source", () => {
  const stopped = outcome({ reason: "timeout", boundary: "b" });
  assert.equal(handedOn(stopped), stopped);
});
