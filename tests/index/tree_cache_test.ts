/**
 * The index as a file-system port (src/index/cache/tree_cache.ts): filling it reads each entry's
 * stat from disk once, folders included (a folder's listing takes its time from the stat the
 * walk just read), and the times it keeps are the disk's.
 */
import assert from "node:assert/strict";
import { fillRequest } from "../../src/index/fill/fill_request.ts";
import { TreeCache } from "../../src/index/cache/tree_cache.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { denoFs, type FsPort } from "../../src/ports/fs.ts";
import { strictGuard } from "../../src/security/guard.ts";
import { scan } from "../../src/walk/scan.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";

Deno.test("TreeCache: a fill stats each entry once, and keeps each folder's time", async () => {
  const spec: TreeSpec = {};
  for (const d of ["a", "a/b", "c"]) spec[d] = { kind: "dir", mtime: T0 - DAY };
  for (const f of ["x.txt", "a/y.txt", "a/b/z.txt", "c/w.txt"]) spec[f] = { mtime: T0 };
  await using tree = await makeTree(spec);
  const stats = new Map<string, number>();
  const counting: FsPort = {
    ...denoFs,
    lstat: (path) => {
      stats.set(path, (stats.get(path) ?? 0) + 1);
      return denoFs.lstat(path);
    },
  };
  const cache = new TreeCache({ base: counting, rootReal: tree.root, maxEntries: 1_000 });
  cache.record(true);
  const root = { path: tree.root, realPath: tree.root };
  const tools = { fs: cache, clock: systemClock, guard: strictGuard };
  await scan(fillRequest(root, 1_000), tools);
  const entries = Object.keys(spec).map((p) => tree.abs(p));
  for (const abs of entries) assert.equal(stats.get(abs), 1, abs);
  for (const d of ["a", "a/b", "c"]) {
    const info = Deno.lstatSync(tree.abs(d));
    assert.deepEqual(
      cache.folderStamp(tree.abs(d)),
      { time: info.mtime!.getTime(), dev: info.dev, ino: info.ino },
      d,
    );
  }
});

Deno.test({
  name: "TreeCache: an ignore file it holds, swapped for a link out with no event, is not read",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using outside = await makeTree({ "rules": { content: "b.txt\n" } }, "fts-outside-");
    await using tree = await makeTree({
      "sub/.gitignore": { mtime: T0, content: "nothing\n" },
      "sub/b.txt": { mtime: T0 },
      "sub": { kind: "dir", mtime: T0 },
    });
    const cache = new TreeCache({ base: denoFs, rootReal: tree.root, maxEntries: 1_000 });
    cache.record(true);
    const root = { path: tree.root, realPath: tree.root };
    const tools = { fs: cache, clock: systemClock, guard: strictGuard };
    const request = { ...fillRequest(root, 1_000), limit: 10 };
    request.filter = { ...request.filter, respectIgnoreFiles: true };
    const before = await scan(request, tools);
    assert.equal(before.collected.total, 2); // .gitignore and b.txt
    // The events were lost: the index still holds .gitignore as a regular file, and the
    // folder's time is put back.
    Deno.removeSync(tree.abs("sub/.gitignore"));
    Deno.symlinkSync(outside.abs("rules"), tree.abs("sub/.gitignore"));
    Deno.utimeSync(tree.abs("sub"), new Date(T0), new Date(T0));
    cache.begin();
    const after = await scan(request, tools);
    assert.ok(after.walk.skipped >= 1, "the link is not used as an ignore file, and counted");
    assert.ok(
      after.collected.first.some((m) => m.path === "sub/b.txt"),
      "the outside file's rules were not read",
    );
  },
});

Deno.test(
  "TreeCache: a folder's mode changed while its listing was already forgotten: no stat is carried",
  async () => {
    // The flaky "mode changed" test of tests/index/unprivileged_test.ts, made certain: an
    // entry added to d forgets d's listing (its stats kept, to be carried to the listing read
    // again); then d's mode changes so that its entries can no longer be stat'ed.
    await using tree = await makeTree({ "d/a.txt": { mtime: T0 }, "d/b.txt": { mtime: T0 } });
    let closed = false;
    const fs: FsPort = {
      ...denoFs,
      lstat: (path) => {
        if (closed && path.startsWith(tree.abs("d") + "/")) {
          throw new Deno.errors.PermissionDenied("closed");
        }
        return denoFs.lstat(path);
      },
    };
    const cache = new TreeCache({ base: fs, rootReal: tree.root, maxEntries: 1_000 });
    cache.record(true);
    const root = { path: tree.root, realPath: tree.root };
    await scan(fillRequest(root, 1_000), { fs: cache, clock: systemClock, guard: strictGuard });
    assert.equal(cache.lstat(tree.abs("d/a.txt")).mtime?.getTime(), T0, "held");
    Deno.writeTextFileSync(tree.abs("d/c.txt"), "c");
    cache.apply([{ kind: "create", paths: [tree.abs("d/c.txt")] }]);
    closed = true;
    cache.apply([{ kind: "modify", paths: [tree.abs("d")] }]);
    cache.begin();
    assert.deepEqual([...cache.readDir(tree.abs("d"))].map((e) => e.name).sort(), [
      "a.txt",
      "b.txt",
      "c.txt",
    ]);
    assert.throws(() => cache.lstat(tree.abs("d/a.txt")), Deno.errors.PermissionDenied);
  },
);
