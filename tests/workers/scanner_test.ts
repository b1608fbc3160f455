/**
 * The scan worker and its Deno permissions (contract §13, layer 2).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { ToolError } from "../../src/errors.ts";
import { WorkerScanner } from "../../src/workers/scanner.ts";
import { type RequestChanges, searchRequest } from "../helpers/request.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";

const request = (rootPath: string, changes: RequestChanges = {}) =>
  searchRequest(rootPath, changes);

Deno.test("WorkerScanner scans inside the roots it may read", async () => {
  await using tree = await makeTree({ "a.txt": { mtime: T0 }, "d/b.txt": { mtime: T0 } });
  const scanner = new WorkerScanner({ readPaths: [tree.root] });
  try {
    const outcome = await scanner.run(request(tree.root));
    assert.deepEqual(outcome.collected.first.map((m) => m.path), ["a.txt", "d/b.txt"]);
    // A second call reuses the warm worker and gives the same answer.
    const again = await scanner.run(request(tree.root));
    assert.deepEqual(again.collected.first.map((m) => m.path), ["a.txt", "d/b.txt"]);
  } finally {
    scanner.close();
  }
});

Deno.test("WorkerScanner cannot read outside its roots even when asked directly", async () => {
  await using allowed = await makeTree({ "a.txt": { mtime: T0 } });
  await using outside = await makeTree({ "secret.txt": { mtime: T0 } }, "fts-outside-");
  const scanner = new WorkerScanner({ readPaths: [allowed.root] });
  try {
    // Layer 1 fooled: the request claims the outside folder is the root, and that
    // everything ("/") is inside the root's real path. Only Deno's permissions remain.
    for (
      const req of [
        request(outside.root),
        request(allowed.root, {
          rootReal: path.parse(allowed.root).root,
          startPath: `../${path.basename(outside.root)}`,
        }),
      ]
    ) {
      await assert.rejects(
        scanner.run(req),
        (err) =>
          err instanceof ToolError && err.code === "AccessDenied" &&
          !err.message.includes(outside.root) && !err.message.includes(allowed.root),
      );
    }
  } finally {
    scanner.close();
  }
});

Deno.test("WorkerScanner rejects an aborted scan and keeps serving", async () => {
  await using tree = await makeTree({ "a.txt": { mtime: T0 } });
  const scanner = new WorkerScanner({ readPaths: [tree.root] });
  try {
    const controller = new AbortController();
    const pending = scanner.run(request(tree.root), { signal: controller.signal });
    controller.abort(new Error("cancelled by test"));
    await assert.rejects(pending, /cancelled by test/);
    const outcome = await scanner.run(request(tree.root));
    assert.deepEqual(outcome.collected.first.map((m) => m.path), ["a.txt"]);
  } finally {
    scanner.close();
  }
});

Deno.test("WorkerScanner lets its warm workers go after idleMs without a scan", async () => {
  await using tree = await makeTree({ "a.txt": { mtime: T0 }, "d/b.txt": { mtime: T0 } });
  const scanner = new WorkerScanner({ readPaths: [tree.root], idleMs: 200 });
  try {
    await scanner.run(request(tree.root));
    assert.ok(scanner.counts().alive > 0, "warm after the scan");
    await until(() => scanner.counts().alive === 0, "the warm workers to be let go");
    // A later scan spawns afresh and answers the same.
    const again = await scanner.run(request(tree.root));
    assert.deepEqual(again.collected.first.map((m) => m.path), ["a.txt", "d/b.txt"]);
  } finally {
    scanner.close();
  }
});
