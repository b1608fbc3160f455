/**
 * `fs.changes_since` as users use it (contract §24), through the SDK client over stdio,
 * with the real watcher: a build that writes and deletes, an editor's atomic save, a
 * folder moved and one removed with its contents, churn in between, paging while the tree
 * changes, and the fresh instance (another server run, `INDEX=off`, a time before the
 * journal); each answer checked against a diff of two `lstat` walks of the disk.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { connect } from "../helpers/server.ts";
import { type Changes, changesOf, clockOf } from "../helpers/changes.ts";
import { indexedServer } from "../helpers/indexed_server.ts";
import { makeTree, T0, touch } from "../helpers/tree.ts";
import { assertSameChanges, snapshot } from "../helpers/snapshot.ts";
import { sanitize } from "../helpers/sanitize.ts";

const changes = changesOf;

const TREE = {
  "src/a.ts": { mtime: T0 },
  "src/b.ts": { mtime: T0 },
  "src/old/x.ts": { mtime: T0 },
  "notes/todo.md": { mtime: T0 },
  "dist/keep.js": { mtime: T0 },
  "dist/gone/1.js": { mtime: T0 },
  "dist/gone/2.js": { mtime: T0 },
};

Deno.test({
  name: "a build, an editor's save, a folder moved and one removed: the net changes, exact",
  ...sanitize,
  async fn() {
    await using tree = await makeTree(TREE);
    await using server = await indexedServer(tree.root);
    const clock = await clockOf(server.conn);
    const before = snapshot(tree.root);
    // The build: writes, deletes, makes a folder with files.
    await Deno.writeTextFile(tree.abs("dist/app.js"), "built");
    await Deno.remove(tree.abs("dist/gone"), { recursive: true });
    await Deno.mkdir(tree.abs("dist/assets"));
    await Deno.writeTextFile(tree.abs("dist/assets/logo.svg"), "<svg/>");
    // An editor's atomic save: a temp file renamed over the name.
    await Deno.writeTextFile(tree.abs("src/.a.ts.swp"), "saved");
    await Deno.rename(tree.abs("src/.a.ts.swp"), tree.abs("src/a.ts"));
    // A folder moved, with what it held; a file written then removed; one changed often.
    await Deno.rename(tree.abs("src/old"), tree.abs("src/new"));
    await Deno.writeTextFile(tree.abs("notes/scratch.md"), "x");
    await Deno.remove(tree.abs("notes/scratch.md"));
    for (let i = 0; i < 10; i++) await Deno.writeTextFile(tree.abs("notes/todo.md"), `v${i}`);
    const after = snapshot(tree.root);

    const got = await changes(server.conn, {
      since: clock,
      includeDirectories: true,
      expand: true,
    });
    assert.equal(got.freshInstance, false, got.reason);
    assert.equal(got.complete, true);
    assertSameChanges(got.changes, before, after, "the changes since the clock");
    const by = new Map(got.changes.map((c) => [c.path, c]));
    assert.equal(by.get("src/a.ts")?.change, "modified", "an atomic save is a modification");
    // The folder renamed, with what it held, when the watcher saw the move as one (on a
    // busy machine its two ends may come apart: then removed and created, contract §24).
    if (by.get("src/new")?.change === "renamed") {
      assert.equal(by.get("src/new")?.previousPath, "src/old");
      assert.equal(by.get("src/new/x.ts")?.change, "renamed");
      assert.equal(by.get("src/new/x.ts")?.previousPath, "src/old/x.ts", "with what it held");
    } else {
      assert.equal(by.get("src/old")?.change, "removed");
      assert.equal(by.get("src/new/x.ts")?.change, "created");
    }
    assert.equal(by.get("dist/gone/1.js")?.change, "removed", "a folder removed takes its files");
    assert.equal(by.has("notes/scratch.md"), false, "created then removed: not listed");
    assert.equal(got.changes.filter((c) => c.path === "notes/todo.md").length, 1);
    assert.equal(by.get("notes/todo.md")?.sizeBytes, 2);
    assert.match(got.summary, /changes since .* local time/);

    // The answer's clock: nothing since; then one change, and only that one.
    const quiet = await changes(server.conn, { since: got.clock });
    assert.deepEqual(quiet.changes, []);
    assert.match(quiet.summary, /^No changes since/);
    touch(tree.abs("src/b.ts"), T0 + 1000);
    const one = await changes(server.conn, {
      since: quiet.clock,
      includeDirectories: true,
      expand: true,
    });
    assert.deepEqual(one.changes.map((c) => [c.path, c.change]), [["src/b.ts", "modified"]]);
  },
});

Deno.test({
  name: "filters as a search's, and paging while the tree changes: each page as of the first",
  ...sanitize,
  async fn() {
    await using tree = await makeTree(TREE);
    await using server = await indexedServer(tree.root);
    const clock = await clockOf(server.conn);
    for (let i = 0; i < 7; i++) await Deno.writeTextFile(tree.abs(`src/gen${i}.ts`), "x");
    await Deno.writeTextFile(tree.abs("src/gen.md"), "x");
    await Deno.writeTextFile(tree.abs("notes/n.ts"), "x");
    const args = { since: clock, path: "src", glob: "**/*.ts", limit: 3 };
    const seen: string[] = [];
    let page = await changes(server.conn, args);
    const first = page.clock;
    assert.equal(page.stats.totalChanges, 7);
    while (true) {
      seen.push(...page.changes.map((c) => c.path));
      assert.equal(page.clock, first, "every page repeats the first page's clock");
      if (page.nextCursor === null) break;
      // Made meanwhile: for the next call, not for this one's pages.
      await Deno.writeTextFile(tree.abs(`src/late${seen.length}.ts`), "x");
      page = await changes(server.conn, { ...args, cursor: page.nextCursor });
    }
    assert.deepEqual(seen, Array.from({ length: 7 }, (_, i) => `src/gen${i}.ts`));
    const later = await changes(server.conn, { since: first, path: "src" });
    assert.deepEqual(later.changes.map((c) => c.path), ["src/late3.ts", "src/late6.ts"]);
  },
});

Deno.test({
  name: "a fresh instance says so: another server run, INDEX=off, a clock not read, a time",
  ...sanitize,
  async fn() {
    await using tree = await makeTree(TREE);
    let clock: string;
    {
      await using server = await indexedServer(tree.root);
      clock = await clockOf(server.conn);
    }
    touch(tree.abs("src/b.ts"), Date.now() + 60_000);
    await Deno.remove(tree.abs("notes/todo.md"));
    await using server = await indexedServer(tree.root);
    const fresh = await changes(server.conn, { since: clock });
    assert.equal(fresh.freshInstance, true);
    assert.equal(fresh.complete, false);
    assert.match(fresh.reason!, /another run of the server/);
    assert.deepEqual(fresh.changes.map((c) => [c.path, c.change]), [["src/b.ts", "modified"]]);
    // Said once, in its fields; the line people read says it in words.
    assert.equal(fresh.notes, undefined);

    // A time at or after the journal's start is exact, removals included.
    const at = new Date().toISOString();
    await Deno.remove(tree.abs("src/a.ts"));
    const exact = await changes(server.conn, { since: at });
    assert.equal(exact.freshInstance, false, exact.reason);
    assert.deepEqual(exact.changes.map((c) => [c.path, c.change]), [["src/a.ts", "removed"]]);

    const bad = await server.conn.client.callTool({
      name: "fs.changes_since",
      arguments: { since: "fts1.nothing" },
    });
    assert.equal(bad.isError, true);
    assert.match(JSON.stringify(bad.content), /InvalidArgument/);

    await using off = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    // Since a time after the tree was made: what was modified (b.ts, a minute ahead) or
    // created (nothing) since then.
    const walked = await changes(off, { since: at });
    assert.equal(walked.freshInstance, true);
    assert.match(walked.reason!, /INDEX=off/);
    assert.deepEqual(walked.changes.map((c) => [c.path, c.change]), [["src/b.ts", "modified"]]);
    // A duration: everything made in the last hour is created (the whole tree here).
    const hour = await changes(off, { since: "1h" });
    assert.ok(hour.changes.every((c) => c.change === "created"), JSON.stringify(hour.changes));
    assert.ok(hour.changes.some((c) => c.path === "dist/keep.js"));
    assert.ok(walked.clock.startsWith("fts2."));
  },
});

Deno.test({
  name: "the journal's clock survives a join: a path under a folder made in the same batch",
  ...sanitize,
  async fn() {
    await using tree = await makeTree(TREE);
    await using server = await indexedServer(tree.root);
    const clock = await clockOf(server.conn);
    const before = snapshot(tree.root);
    await Deno.mkdir(join(tree.root, "pkg/a/b"), { recursive: true });
    for (let i = 0; i < 20; i++) await Deno.writeTextFile(join(tree.root, `pkg/a/b/f${i}`), "x");
    const after = snapshot(tree.root);
    const got = await changes(server.conn, {
      since: clock,
      includeDirectories: true,
      expand: true,
    });
    assert.equal(got.freshInstance, false, got.reason);
    assertSameChanges(got.changes, before, after, "a new folder tree");
  },
});

Deno.test({
  name: "pages cut to MAX_RESULT_CHARS: each whole answer fits, and the pages hold every change",
  ...sanitize,
  async fn() {
    await using tree = await makeTree(TREE);
    await using server = await indexedServer(tree.root, { MAX_RESULT_CHARS: "4000" });
    const clock = await clockOf(server.conn);
    const names = Array.from({ length: 60 }, (_, i) => `made/${"long-name-".repeat(4)}${i}.txt`);
    Deno.mkdirSync(tree.abs("made"));
    for (const name of names) Deno.writeTextFileSync(tree.abs(name), "x");
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const result = await server.conn.client.callTool({
        name: "fs.changes_since",
        arguments: { since: clock, limit: 1000, ...(cursor ? { cursor } : {}) },
      });
      assert.ok(JSON.stringify(result.structuredContent).length <= 4000);
      const page = result.structuredContent as unknown as Changes;
      assert.ok(page.changes.length > 0);
      seen.push(...page.changes.map((c) => c.path));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, [...names].sort());
  },
});
