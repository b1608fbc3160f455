/**
 * A root's journal fed the events as the runtime gives them on a busy machine: a folder
 * moved into a folder made just before, which the runtime watched only after the move,
 * gives one end of the move (its old name gone) and never the other; the journal finds it
 * in the folder that appeared by its inode and says it renamed, as when both ends came.
 */
import assert from "node:assert/strict";
import { TreeCache } from "../../src/index/cache/tree_cache.ts";
import { fillRequest } from "../../src/index/fill/fill_request.ts";
import { RootJournal } from "../../src/index/journal/root_journal.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs } from "../../src/ports/fs.ts";
import { strictGuard } from "../../src/security/guard.ts";
import { scan } from "../../src/walk/scan.ts";
import { makeTree, T0 } from "../helpers/tree.ts";

Deno.test({
  name: "root journal: a folder moved into one not yet watched is renamed, found by its inode",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using tree = await makeTree({
      "src/pkg0/lib/a.js": { mtime: T0 },
      "src/pkg0/lib/b.js": { mtime: T0 },
      "src/pkg1/c.js": { mtime: T0 },
    });
    const root = { path: tree.root, realPath: tree.root };
    const cache = new TreeCache({ base: denoFs, rootReal: tree.root, maxEntries: 1_000 });
    cache.record(true);
    await scan(fillRequest(root, 1_000), { fs: cache, clock: systemClock, guard: strictGuard });
    const journal = new RootJournal(cache, denoFs, { maxSteps: 1_000, maxAgeMs: 1e9 }, Date.now);
    journal.begin();
    const from = journal.position;
    Deno.mkdirSync(tree.abs("moved"));
    Deno.renameSync(tree.abs("src/pkg0"), tree.abs("moved/pkg0"));
    // The runtime: `moved` made, `src/pkg0` moved away (to a folder it did not watch yet).
    journal.apply([
      { kind: "create", paths: [tree.abs("moved")] },
      { kind: "rename", paths: [tree.abs("src/pkg0")] },
    ]);
    const answer = journal.ask({
      since: { position: from },
      until: null,
      startPath: "",
      filter: { ...fillRequest(root, 1_000).filter, includeDirectories: true },
      expand: false,
      after: null,
      limit: 100,
    });
    assert.ok(!("fresh" in answer), "the journal answers");
    const lines = answer.changes.map((c) => [c.path, c.change, c.previousPath ?? null]);
    assert.deepEqual(lines.filter(([, change]) => change !== "modified"), [
      ["moved", "created", null],
      ["moved/pkg0", "renamed", "src/pkg0"],
    ]);
  },
});
