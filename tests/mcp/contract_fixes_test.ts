/**
 * Contract points found by a differential run on real trees, end to end through the
 * SDK client: a link named as the start path (contract §8), trailing `/**` and unclosed
 * brackets in globs (§9), entries without a created time (§7), and `totalMatches` (§11).
 */
import assert from "node:assert/strict";
import { connect, textOf } from "../helpers/server.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

interface Output {
  matches: { path: string; isDirectory: boolean; sizeBytes: number | null }[];
  nextCursor: string | null;
  stats: { unknownTime?: number; totalMatches?: number; returned: number };
}
const out = (r: { structuredContent?: unknown }) => r.structuredContent as Output;
const paths = (r: { structuredContent?: unknown }) => out(r).matches.map((m) => m.path);

Deno.test({
  name: "a start path whose last component is a link is the link itself, never followed",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({
      "lib/libz.so.1.3": { mtime: T0, content: "x".repeat(5000) },
      "jvm/java-17-real/bin/java": { mtime: T0 },
    });
    await Deno.symlink("libz.so.1.3", tree.abs("lib/libz.so.1"));
    await Deno.symlink("java-17-real", tree.abs("jvm/java-17"));
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    const file = await conn.search({ timeField: "modified", path: "lib/libz.so.1" });
    assert.deepEqual(paths(file), ["lib/libz.so.1"]);
    const link = Deno.lstatSync(tree.abs("lib/libz.so.1"));
    assert.equal(out(file).matches[0]!.sizeBytes, link.size, "the link's own size");
    assert.notEqual(link.size, 5000);
    const folder = await conn.search({
      timeField: "modified",
      path: "jvm/java-17",
      includeDirectories: true,
    });
    assert.deepEqual(out(folder).matches.map((m) => [m.path, m.isDirectory]), [[
      "jvm/java-17",
      false,
    ]]);
    // Through the link, to a folder inside the root, is still fine.
    const through = await conn.search({ timeField: "modified", path: "jvm/java-17/bin" });
    assert.deepEqual(paths(through), ["jvm/java-17/bin/java"]);
  },
});

Deno.test({
  name: "a trailing /** also matches the folder itself",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({
      "@babel/core/index.js": { mtime: T0 },
      "doc/a.md": { mtime: T0 },
      "top.txt": { mtime: T0 },
    });
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    const search = (glob: string) =>
      conn.search({ timeField: "modified", glob, includeDirectories: true, sort: "path_asc" });
    assert.deepEqual(paths(await search("@*/**")), [
      "@babel",
      "@babel/core",
      "@babel/core/index.js",
    ]);
    assert.deepEqual(paths(await search("*/**")), [
      "@babel",
      "@babel/core",
      "@babel/core/index.js",
      "doc",
      "doc/a.md",
      "top.txt",
    ]);
    assert.deepEqual(paths(await search("doc/**")), ["doc", "doc/a.md"]);
  },
});

Deno.test({
  name: "a glob with an unclosed [ or { is InvalidArgument naming the bracket",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.conf": { mtime: T0 } });
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    for (const [glob, bracket] of [["[", "["], ["**/*.{conf", "{"], ["a[b", "["]]) {
      const result = await conn.search({ timeField: "modified", glob });
      assert.equal(result.isError, true, glob);
      const text = textOf(result);
      assert.match(text, /^ErrorCode: InvalidArgument\n/, glob);
      assert.ok(text.includes(`a '${bracket}' that is never closed`), text);
      assert.match(text, /\nFix: Close it with/, text);
    }
    // Escaped, the bracket is a literal character.
    const literal = await conn.search({ timeField: "modified", glob: "\\[*" });
    assert.equal(literal.isError, false);
  },
});

Deno.test({
  name: "created-time searches count and name the entries without a created time",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 }, "b.txt": { mtime: T0 + DAY } });
    await using conn = await connect({ ALLOW_ROOTS: tree.root }, { noBirthTimes: true });
    const left = await conn.search({ timeField: "created" });
    assert.deepEqual(paths(left), []);
    assert.equal(out(left).stats.unknownTime, 2);
    assert.match(
      textOf(left),
      /2 entries were left out because the file system records no created time for them; set includeUnknownTime to true/,
    );
    const included = await conn.search({ timeField: "created", includeUnknownTime: true });
    assert.deepEqual(paths(included).sort(), ["a.txt", "b.txt"]);
    assert.equal(out(included).stats.unknownTime, 0);
    // from == to is an empty window, even for unknown times.
    const at = new Date(T0).toISOString();
    const empty = await conn.search({
      timeField: "created",
      includeUnknownTime: true,
      from: at,
      to: at,
    });
    assert.deepEqual(paths(empty), []);
    assert.equal(out(empty).nextCursor, null);
    // Modified-time searches say nothing about it.
    const modified = await conn.search({ timeField: "modified" });
    assert.equal(out(modified).stats.unknownTime, undefined);
  },
});

Deno.test({
  name: "stats.totalMatches counts the whole query when the scan saw all of it",
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 7; i++) spec[`f${i}.md`] = { mtime: T0 + i * DAY };
    spec["x.txt"] = { mtime: T0 };
    await using tree = await makeTree(spec);
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    const first = await conn.search({ timeField: "modified", glob: "*.md", limit: 3 });
    assert.equal(out(first).stats.totalMatches, 7);
    assert.match(textOf(first), /^Found 7 files; this page shows 3 \(newest first\)\./);
    const second = await conn.search({
      timeField: "modified",
      glob: "*.md",
      limit: 3,
      cursor: out(first).nextCursor,
    });
    assert.equal(out(second).stats.totalMatches, 7);
    assert.equal(out(second).stats.returned, 3);
    const all = await conn.search({ timeField: "modified", glob: "*.md" });
    assert.equal(out(all).stats.totalMatches, 7);
    assert.match(textOf(all), /^Found 7 files \(newest first\)/);
  },
});

Deno.test({
  name: "stats.totalMatches is absent when the scan did not see the whole query",
  ...sanitize,
  async fn() {
    const spec: Record<string, { mtime: number }> = {};
    for (let i = 0; i < 6; i++) spec[`d${i}/f.md`] = { mtime: T0 + i * DAY };
    await using tree = await makeTree(spec);
    await using conn = await connect({ ALLOW_ROOTS: tree.root, MAX_FILES_SCANNED: "2" });
    const truncated = await conn.search({ timeField: "modified" });
    assert.equal(
      (truncated.structuredContent as { stats: { truncated: boolean } }).stats.truncated,
      true,
    );
    assert.equal(out(truncated).stats.totalMatches, undefined);
  },
});
