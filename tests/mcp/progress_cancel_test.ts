/**
 * Progress, cancellation and responsiveness during a scan (contract §12), end to end.
 * Time is simulated through the test seam: no sleeps, nothing depends on machine speed.
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import {
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { connect } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { until } from "../helpers/until.ts";

Deno.test({
  name: "progress notifications arrive for a slow scan, with growing counts",
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 40; i++) spec[`d${i % 4}/f${i}.txt`] = { mtime: T0 + i };
    await using tree = await makeTree(spec);
    // Every file-system call takes 100 ms of simulated time.
    await using conn = await connect({ ALLOW_ROOTS: tree.root }, { fsDelayMs: 100 });
    // Every progress notification, as it arrives. The SDK's own `onprogress` runs a
    // microtask later and is dropped once the answer is read: with simulated time the
    // notifications come in one burst with the answer, and how many the SDK still hands on
    // depends on how the pipe splits them (1, in one full run of the suite of 3).
    const seen: { progressToken: unknown; progress: number; message?: string }[] = [];
    conn.client.setNotificationHandler(
      ProgressNotificationSchema,
      (n: { params: { progressToken: unknown; progress: number; message?: string } }) =>
        void seen.push(n.params),
    );
    const result = await conn.client.callTool(
      { name: "fs.search_by_time", arguments: { timeField: "modified" } },
      undefined,
      { onprogress: () => {} }, // the SDK sends a progress token
    );
    assert.equal(result.isError, false);
    assert.ok(seen.length >= 3, `only ${seen.length} progress notifications`);
    assert.equal(new Set(seen.map((p) => p.progressToken)).size, 1, "one token: the call's");
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.progress > seen[i - 1]!.progress);
    assert.match(seen[0]!.message ?? "", /^Scanning: \d+ files and \d+ folders so far\.$/);
    // Without a progress token, none are sent.
    const before = seen.length;
    await conn.search({ timeField: "modified" });
    assert.equal(seen.length, before);
  },
});

Deno.test({
  name: "cancellation stops a hung scan, ping is answered meanwhile, and the next call works",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "slow/a.txt": { mtime: T0 }, "fast/b.txt": { mtime: T0 } });
    // Any file-system call under slow/ hangs until its worker is stopped.
    await using conn = await connect({ ALLOW_ROOTS: tree.root }, { stallOn: tree.abs("slow") });
    // The server says, in its log, how soon after each cancel it stopped the scan.
    const stopped: number[] = [];
    conn.client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n: { params: { data: unknown } }) => {
        const m = /search cancelled: its scan stopped (\d+) ms after the cancel/.exec(
          String(n.params.data),
        );
        if (m) stopped.push(Number(m[1]));
      },
    );
    await conn.client.setLoggingLevel("info");
    // More cancelled scans than the pool has workers: each must free its worker.
    for (let i = 0; i < 6; i++) {
      const controller = new AbortController();
      const pending = conn.client.callTool(
        { name: "fs.search_by_time", arguments: { timeField: "modified", path: "slow" } },
        undefined,
        { signal: controller.signal },
      );
      await conn.client.ping(); // answered while the scan hangs
      controller.abort("changed my mind");
      await assert.rejects(pending);
      // The scan is stuck in the file system, and would stay so until its hard deadline
      // (15 s): only the server's own cancellation stops it this soon.
      await until(() => stopped.length === i + 1, "the server to stop the cancelled scan");
      assert.ok(stopped[i]! < 100, `stopped ${stopped[i]} ms after the cancel`);
    }
    const next = await conn.search({ timeField: "modified", path: "fast" });
    assert.equal(next.isError, false);
    assert.deepEqual(
      (next.structuredContent as { matches: { path: string }[] }).matches.map((m) => m.path),
      ["fast/b.txt"],
    );
    const list = await conn.client.listTools();
    assert.equal(list.tools.length, 3);
  },
});
