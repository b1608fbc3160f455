/**
 * Semantics of fs.search_by_time on real temp trees with set mtimes (contract §6-§11).
 */
import assert from "node:assert/strict";
import { ToolError } from "../../src/errors.ts";
import { denoFs, type FsPort } from "../../src/ports/fs.ts";
import { loadConfig } from "../../src/config.ts";
import { Pager } from "../../src/paging/paging.ts";
import { systemClock } from "../../src/ports/clock.ts";
import { searchByTime } from "../../src/search/search_by_time.ts";
import { strictGuard } from "../../src/security/guard.ts";
import type { Scanner } from "../../src/workers/scanner.ts";
import { allPages, engine } from "../helpers/engine.ts";
import { InlineScanner } from "../helpers/inline_scanner.ts";
import { DAY, iso, makeTree, T0 } from "../helpers/tree.ts";

const paths = (out: { matches: { path: string }[] }) => out.matches.map((m) => m.path);

Deno.test("searchByTime() treats from as inclusive and to as exclusive", async () => {
  await using tree = await makeTree({
    "before.txt": { mtime: T0 - 1 },
    "at-from.txt": { mtime: T0 },
    "inside.txt": { mtime: T0 + DAY },
    "before-to.txt": { mtime: T0 + 2 * DAY - 1 },
    "at-to.txt": { mtime: T0 + 2 * DAY },
  });
  const out = await engine(tree.root).search({
    timeField: "modified",
    from: iso(T0),
    to: iso(T0 + 2 * DAY),
    sort: "time_asc",
  });
  assert.deepEqual(paths(out), ["at-from.txt", "inside.txt", "before-to.txt"]);
});

Deno.test("searchByTime() compares offsets in absolute time", async () => {
  await using tree = await makeTree({ "a.txt": { mtime: Date.UTC(2025, 11, 15) } });
  const e = engine(tree.root);
  const hit = await e.search({ timeField: "modified", from: "2025-12-15T09:00:00+09:00" });
  assert.deepEqual(paths(hit), ["a.txt"]);
  const miss = await e.search({ timeField: "modified", from: "2025-12-15T09:00:00.001+09:00" });
  assert.deepEqual(paths(miss), []);
});

Deno.test("searchByTime() returns nothing when from equals to", async () => {
  await using tree = await makeTree({ "a.txt": { mtime: T0 } });
  const out = await engine(tree.root).search({ timeField: "modified", from: iso(T0), to: iso(T0) });
  assert.deepEqual(out.matches, []);
  assert.equal(out.nextCursor, null);
  assert.deepEqual(out.range, { from: iso(T0), to: iso(T0) });
});

const DEPTH_TREE = {
  "top.txt": { mtime: T0 },
  "d1/one.txt": { mtime: T0 },
  "d1/d2/two.txt": { mtime: T0 },
  "d1/d2/d3/three.txt": { mtime: T0 },
} as const;

Deno.test("searchByTime() accepts maxDepth 0, 1 and n", async () => {
  await using tree = await makeTree(DEPTH_TREE);
  const e = engine(tree.root);
  const base = { timeField: "modified", sort: "path_asc", includeDirectories: true };
  assert.deepEqual(paths(await e.search({ ...base, maxDepth: 0 })), []);
  assert.deepEqual(paths(await e.search({ ...base, path: "d1", maxDepth: 0 })), ["d1"]);
  assert.deepEqual(paths(await e.search({ ...base, maxDepth: 1 })), ["d1", "top.txt"]);
  assert.deepEqual(paths(await e.search({ ...base, path: "d1", maxDepth: 1 })), [
    "d1",
    "d1/d2",
    "d1/one.txt",
  ]);
  assert.deepEqual(paths(await e.search({ ...base, maxDepth: 2 })), [
    "d1",
    "d1/d2",
    "d1/one.txt",
    "top.txt",
  ]);
  assert.deepEqual(paths(await e.search({ ...base })), [
    "d1",
    "d1/d2",
    "d1/d2/d3",
    "d1/d2/d3/three.txt",
    "d1/d2/two.txt",
    "d1/one.txt",
    "top.txt",
  ]);
});

Deno.test("searchByTime() caps the implicit depth at MAX_DEPTH", async () => {
  await using tree = await makeTree(DEPTH_TREE);
  const out = await engine(tree.root, { env: { MAX_DEPTH: "2" } }).search({
    timeField: "modified",
    sort: "path_asc",
  });
  assert.deepEqual(paths(out), ["d1/one.txt", "top.txt"]);
});

Deno.test("searchByTime() lists only direct children when recursive is false", async () => {
  await using tree = await makeTree(DEPTH_TREE);
  const e = engine(tree.root);
  const args = {
    timeField: "modified",
    sort: "path_asc",
    recursive: false,
    includeDirectories: true,
  };
  assert.deepEqual(paths(await e.search(args)), ["d1", "top.txt"]);
  assert.deepEqual(paths(await e.search({ ...args, maxDepth: 3 })), ["d1", "top.txt"]);
  assert.deepEqual(paths(await e.search({ ...args, path: "d1" })), ["d1/d2", "d1/one.txt"]);
});

Deno.test("searchByTime() returns a file start path itself, whatever the depth", async () => {
  await using tree = await makeTree(DEPTH_TREE);
  const e = engine(tree.root);
  for (const extra of [{}, { maxDepth: 0 }, { maxDepth: 5 }, { recursive: false }]) {
    const out = await e.search({ timeField: "modified", path: "d1/one.txt", ...extra });
    assert.deepEqual(paths(out), ["d1/one.txt"], JSON.stringify(extra));
  }
  const none = await e.search({ timeField: "modified", path: "d1/one.txt", includeFiles: false });
  assert.deepEqual(paths(none), []);
});

Deno.test("searchByTime() includes directories only when asked", async () => {
  await using tree = await makeTree({
    "d/f.txt": { mtime: T0 },
    "d": { kind: "dir", mtime: T0 + DAY },
  });
  const e = engine(tree.root);
  assert.deepEqual(paths(await e.search({ timeField: "modified" })), ["d/f.txt"]);
  const both = await e.search({ timeField: "modified", includeDirectories: true });
  assert.deepEqual(paths(both), ["d", "d/f.txt"]);
  assert.deepEqual(both.matches[0], {
    path: "d",
    isDirectory: true,
    sizeBytes: null,
    modifiedAt: iso(T0 + DAY),
    createdAt: both.matches[0]!.createdAt,
  });
  const dirsOnly = await e.search({
    timeField: "modified",
    includeDirectories: true,
    includeFiles: false,
  });
  assert.deepEqual(paths(dirsOnly), ["d"]);
  const nothing = await e.search({
    timeField: "modified",
    includeDirectories: false,
    includeFiles: false,
  });
  assert.deepEqual(nothing.matches, []);
  assert.equal(nothing.stats.scannedFiles, 0);
  assert.equal(nothing.stats.scannedDirectories, 0);
});

Deno.test("searchByTime() matches globs against root-relative paths", async () => {
  await using tree = await makeTree({
    "a.md": { mtime: T0 },
    "x/b.md": { mtime: T0 },
    "x/y/c.md": { mtime: T0 },
    "x/y/c.txt": { mtime: T0 },
    ".hidden.md": { mtime: T0 },
    ".git/config": { mtime: T0 },
  });
  const e = engine(tree.root);
  const search = (glob: string, extra = {}) =>
    e.search({ timeField: "modified", sort: "path_asc", glob, ...extra }).then(paths);
  assert.deepEqual(await search("**/*.md"), [".hidden.md", "a.md", "x/b.md", "x/y/c.md"]);
  assert.deepEqual(await search("*.md"), [".hidden.md", "a.md"]);
  // What lies inside .git is left out unless asked for (contract §27).
  assert.deepEqual(await search(".*/*"), []);
  assert.deepEqual(await search(".*/*", { includeVcs: true }), [".git/config"]);
  assert.deepEqual(await search("x/**"), ["x/b.md", "x/y/c.md", "x/y/c.txt"]);
  assert.deepEqual(await search("**/*.md", { path: "x" }), ["x/b.md", "x/y/c.md"]);
  assert.deepEqual(
    await search("*.md", { path: "x" }),
    [],
    "a glob always sees the root-relative path",
  );
  assert.deepEqual(await search(""), await search("**"), "an empty glob matches everything");
});

Deno.test("searchByTime() sorts all three orders with ties broken by path", async () => {
  await using tree = await makeTree({
    "b.txt": { mtime: T0 + DAY },
    "a.txt": { mtime: T0 + DAY },
    "c.txt": { mtime: T0 },
    "d.txt": { mtime: T0 + 2 * DAY },
    "B.txt": { mtime: T0 },
  });
  const e = engine(tree.root);
  const search = (sort: string) => e.search({ timeField: "modified", sort }).then(paths);
  assert.deepEqual(await search("time_desc"), ["d.txt", "a.txt", "b.txt", "B.txt", "c.txt"]);
  assert.deepEqual(await search("time_asc"), ["B.txt", "c.txt", "a.txt", "b.txt", "d.txt"]);
  assert.deepEqual(await search("path_asc"), ["B.txt", "a.txt", "b.txt", "c.txt", "d.txt"]);
});

/** A port whose lstat reports no birth time for names containing "nobirth". */
function withoutBirthTimes(base: FsPort): FsPort {
  return {
    ...base,
    lstat(p) {
      const info = base.lstat(p);
      return p.includes("nobirth") ? { ...info, birthtime: null } : info;
    },
  };
}

Deno.test("searchByTime() leaves unknown created times out unless includeUnknownTime", async () => {
  await using tree = await makeTree({ "known.txt": {}, "nobirth.txt": {}, "nobirth2.txt": {} });
  const e = engine(tree.root, { fs: withoutBirthTimes(denoFs) });
  const known = await e.search({ timeField: "created" });
  assert.deepEqual(paths(known), ["known.txt"]);
  assert.ok(known.matches[0]!.createdAt !== null);
  // Included whatever the range says, after every known time in both orders.
  const far = { from: "2000-01-01T00:00:00Z", to: "2000-01-02T00:00:00Z" };
  const unknownOnly = await e.search({ timeField: "created", includeUnknownTime: true, ...far });
  assert.deepEqual(paths(unknownOnly), ["nobirth.txt", "nobirth2.txt"]);
  assert.deepEqual(unknownOnly.matches.map((m) => m.createdAt), [null, null]);
  for (const sort of ["time_desc", "time_asc"]) {
    const all = await e.search({ timeField: "created", includeUnknownTime: true, sort });
    assert.deepEqual(paths(all), ["known.txt", "nobirth.txt", "nobirth2.txt"], sort);
  }
  // Paging through unknown times neither loses nor repeats.
  const pages = await allPages(e, { timeField: "created", includeUnknownTime: true, limit: 1 });
  assert.deepEqual(pages.flatMap(paths), ["known.txt", "nobirth.txt", "nobirth2.txt"]);
  // modified never depends on the birth time.
  assert.equal((await e.search({ timeField: "modified" })).matches.length, 3);
});

Deno.test("searchByTime() returns root-relative '/' paths for a nested start", async () => {
  await using tree = await makeTree(DEPTH_TREE);
  const out = await engine(tree.root).search({
    timeField: "modified",
    path: "d1\\d2/./d3/../d3",
    sort: "path_asc",
    includeDirectories: true,
  });
  assert.deepEqual(paths(out), ["d1/d2/d3", "d1/d2/d3/three.txt"]);
  for (const m of out.matches) {
    assert.ok(!m.path.startsWith("/") && !m.path.includes("\\") && !m.path.includes(tree.root));
  }
});

Deno.test("searchByTime() lists symlinks as files and never follows them", async () => {
  await using outside = await makeTree({ "secret.txt": { mtime: T0 } }, "fts-outside-");
  await using tree = await makeTree({
    "real/f.txt": { mtime: T0 },
    "link-out": { kind: "symlink", target: outside.root },
    "link-in": { kind: "symlink", target: "real" },
  });
  const out = await engine(tree.root).search({
    timeField: "modified",
    sort: "path_asc",
    includeDirectories: true,
  });
  assert.deepEqual(paths(out), ["link-in", "link-out", "real", "real/f.txt"]);
  assert.equal(out.matches[0]!.isDirectory, false);
  // A link named as the start path is the start itself, never followed (contract §8);
  // a path through a link that stays inside the root leads to the real folder.
  const atLink = await engine(tree.root).search({ timeField: "modified", path: "link-in" });
  assert.deepEqual(paths(atLink), ["link-in"]);
  const viaLink = await engine(tree.root).search({ timeField: "modified", path: "link-in/f.txt" });
  assert.deepEqual(paths(viaLink), ["link-in/f.txt"]);
});

Deno.test("searchByTime() skips and counts an entry that vanishes", async () => {
  await using tree = await makeTree({ "a.txt": { mtime: T0 }, "gone.txt": { mtime: T0 } });
  const vanishing: FsPort = {
    ...denoFs,
    lstat(p) {
      if (p.endsWith("gone.txt")) throw new Deno.errors.NotFound("vanished");
      return denoFs.lstat(p);
    },
  };
  const out = await engine(tree.root, { fs: vanishing }).search({ timeField: "modified" });
  assert.deepEqual(paths(out), ["a.txt"]);
  assert.equal(out.stats.skipped, 1);
  assert.equal(out.stats.scannedFiles, 2);
});

Deno.test("searchByTime() pages with limit and a cursor", async () => {
  const spec: Record<string, { mtime: number }> = {};
  for (let i = 0; i < 7; i++) spec[`f${i}.txt`] = { mtime: T0 + (i % 3) * DAY };
  await using tree = await makeTree(spec);
  const e = engine(tree.root);
  for (const sort of ["time_desc", "time_asc", "path_asc"]) {
    const whole = await e.search({ timeField: "modified", sort });
    const pages = await allPages(e, { timeField: "modified", sort, limit: 3 });
    assert.deepEqual(pages.map((p) => p.matches.length), [3, 3, 1], sort);
    assert.deepEqual(pages.flatMap(paths), paths(whole), sort);
    assert.equal(pages[2]!.nextCursor, null);
  }
});

Deno.test("searchByTime() returns partial pages at the scan limit and resumes", async () => {
  const spec: Record<string, { mtime: number }> = {};
  for (let i = 0; i < 5; i++) spec[`d${i}/f.txt`] = { mtime: T0 + i * DAY };
  await using tree = await makeTree(spec);
  const e = engine(tree.root, { env: { MAX_FILES_SCANNED: "2" } });
  const first = await e.search({ timeField: "modified" });
  assert.equal(first.stats.truncated, true);
  assert.deepEqual(paths(first), ["d1/f.txt", "d0/f.txt"]);
  assert.notEqual(first.nextCursor, null);
  const pages = await allPages(e, { timeField: "modified" });
  assert.deepEqual(pages.flatMap(paths).sort(), Object.keys(spec).sort());
});

Deno.test("searchByTime() rejects a start path that is missing or unreadable", async () => {
  await using tree = await makeTree({ "a/b.txt": {} });
  const e = engine(tree.root);
  await assert.rejects(
    e.search({ timeField: "modified", path: "a/nope" }),
    (err) => err instanceof ToolError && err.code === "PathNotFound",
  );
  await assert.rejects(
    e.search({ timeField: "modified", path: "a/b.txt/c" }),
    (err) => err instanceof ToolError && err.code === "PathNotFound",
  );
});

Deno.test("searchByTime() rejects a start path whose link leaves the root, even if it comes back", async () => {
  await using tree = await makeTree({ "inside/f.txt": { mtime: T0 } });
  await using outside = await makeTree({
    "back": { kind: "symlink", target: tree.abs("inside") },
  }, "fts-outside-");
  await Deno.symlink(outside.root, tree.abs("out"));
  await Deno.symlink("loop-b", tree.abs("loop-a"));
  await Deno.symlink("loop-a", tree.abs("loop-b"));
  const e = engine(tree.root);
  await assert.rejects(
    e.search({ timeField: "modified", path: "out/back" }),
    (err) => err instanceof ToolError && err.code === "SymlinkEscapeDetected",
  );
  await assert.rejects(
    e.search({ timeField: "modified", path: "loop-a/x" }),
    (err) => err instanceof ToolError && err.code === "PathNotFound",
  );
});

Deno.test("searchByTime() cuts a page for size by its matches alone, not by its counts", async () => {
  // An indexed answer examines less than a walk and may not count its matches (contract
  // §18): the page it gives must hold the same matches all the same.
  const spec: Record<string, { mtime: number }> = {};
  for (let i = 0; i < 80; i++) {
    spec[`${"long-folder-name-".repeat(3)}/${i}.txt`] = { mtime: T0 + i };
  }
  await using tree = await makeTree(spec);
  const config = loadConfig({ env: (name) => ({ ALLOW_ROOTS: tree.root })[name] });
  const inline = new InlineScanner({ fs: denoFs, clock: systemClock, guard: strictGuard });
  const returned = async (maxResultChars: number, examined: number, counted: boolean) => {
    const scanner: Scanner = {
      run: async (request, options) => {
        const outcome = await inline.run(request, options);
        const walk = { ...outcome.walk, scannedFiles: examined, scannedDirectories: examined };
        const total = counted ? outcome.collected.total : null;
        return { ...outcome, walk, collected: { ...outcome.collected, total } };
      },
      close: () => {},
    };
    const pager = new Pager({ scanner, clock: systemClock });
    const deps = { config, pager, clock: systemClock, maxResultChars };
    return (await searchByTime({ timeField: "modified", limit: 80 }, deps)).output.stats.returned;
  };
  let cut = 0;
  for (let max = 4_000; max < 6_000; max += 7) {
    const fewest = await returned(max, 1, false);
    assert.equal(await returned(max, 123_456_789, true), fewest, `MAX_RESULT_CHARS ${max}`);
    if (fewest < 80) cut++;
  }
  assert.ok(cut > 0, "no page was cut: the test shows nothing");
});
