/**
 * Content reads are reads (contract §17): an ignore file is read only as a regular file,
 * checked on disk at read time (never through a link, never a FIFO), up to a bound
 * (1 MiB); one that fails is not used for that call and counted as skipped, with the
 * index off and on alike; no ignore file, however large, stops or kills the server.
 */
import assert from "node:assert/strict";
import { denoFs } from "../../src/ports/fs.ts";
import { IGNORE_FILE_MAX_BYTES } from "../../src/walk/exclusion.ts";
import { engine } from "../helpers/engine.ts";
import { NO_INDEX, readyIndex } from "../helpers/live_index.ts";
import { connect, rootIndex } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";

const posix = Deno.build.os !== "windows";
const ARGS = { timeField: "modified", respectIgnoreFiles: true, limit: 100 };

Deno.test("ignore file reads: a regular file within the bound, and nothing else", async () => {
  await using outside = await makeTree({ "rules": { content: "*\n" } }, "fts-outside-");
  await using tree = await makeTree({ "ok": { content: "*.log\n" }, "big": { content: "" } });
  assert.equal(denoFs.readTextFile(tree.abs("ok"), IGNORE_FILE_MAX_BYTES), "*.log\n");
  Deno.truncateSync(tree.abs("big"), IGNORE_FILE_MAX_BYTES + 1);
  assert.throws(() => denoFs.readTextFile(tree.abs("big"), IGNORE_FILE_MAX_BYTES), /bound/);
  Deno.symlinkSync(outside.abs("rules"), tree.abs("link"));
  assert.throws(() => denoFs.readTextFile(tree.abs("link"), 100), Deno.errors.InvalidData);
  if (posix) {
    // Never opened: opening it would block until a writer came.
    await new Deno.Command("mkfifo", { args: [tree.abs("fifo")] }).output();
    assert.throws(() => denoFs.readTextFile(tree.abs("fifo"), 100), Deno.errors.InvalidData);
  }
});

Deno.test({
  name: "ignore file reads: one past the bound is not used and is counted, index off and on",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({
      "a.txt": { mtime: T0 },
      "b.log": { mtime: T0 },
      "d/.gitignore": { content: "*.log\n" + "#".repeat(IGNORE_FILE_MAX_BYTES) },
      "d/c.log": { mtime: T0 },
    });
    const walked = await engine(tree.root).search(ARGS);
    const index = await readyIndex(tree.root);
    try {
      const indexed = await engine(tree.root, { scanner: index }).search(ARGS);
      for (const out of [walked, indexed]) {
        // d/.gitignore was not used: d/c.log is listed; it is counted as skipped.
        assert.ok(out.matches.some((m) => m.path === "d/c.log"), JSON.stringify(out.matches));
        assert.equal(out.stats.skipped, 1);
      }
      assert.equal(index.status()[0]!.answers.index, 1, "the index answered");
    } finally {
      index.close();
    }
  },
});

Deno.test({
  name: "ignore file reads: a 300 MB .gitignore neither stops nor kills the server",
  ignore: !posix,
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 }, "b.log": { mtime: T0 } });
    Deno.writeTextFileSync(tree.abs(".gitignore"), "*.log\n");
    Deno.truncateSync(tree.abs(".gitignore"), 300_000_000); // sparse: no disk used
    for (const INDEX of ["off", "on"]) {
      await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX });
      if (INDEX === "on") {
        await until(async () => (await rootIndex(conn)).state === "ready", "the index");
      }
      const out = (await conn.search(ARGS)).structuredContent as {
        matches: { path: string }[];
        stats: { skipped: number };
      };
      assert.deepEqual(out.matches.map((m) => m.path).sort(), [".gitignore", "a.txt", "b.log"]);
      assert.equal(out.stats.skipped, 1);
      if (INDEX === "on") assert.equal((await rootIndex(conn)).answers?.index, 1);
    }
  },
});
