/**
 * The two sandbox layers (contract §13), end to end, and error hygiene: no message
 * ever holds a root's absolute path or a path outside the roots.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { connect, textOf } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

Deno.test({
  name: "sandbox: with layer 1 switched off, Deno's permissions still refuse reads outside",
  ...sanitize,
  async fn() {
    await using outside = await makeTree({ "SECRET.txt": { mtime: T0 } }, "fts-outside-");
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    const escape = path.relative(tree.root, outside.root); // "../fts-outside-…"
    {
      // Layer 1 on: the lexical rule refuses the path before anything is read.
      await using conn = await connect({ ALLOW_ROOTS: tree.root });
      const result = await conn.search({ timeField: "modified", path: escape });
      assert.match(textOf(result), /^ErrorCode: PathTraversalDetected$/m);
    }
    {
      // Layer 1 off: the worker is asked to read outside, and Deno says no.
      await using conn = await connect({ ALLOW_ROOTS: tree.root }, { disableGuard: true });
      const result = await conn.search({ timeField: "modified", path: escape });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /^ErrorCode: AccessDenied$/m);
      assert.ok(!JSON.stringify(result).includes("SECRET"));
      // Inside the root, the unguarded server still works: only the outside is refused.
      const inside = await conn.search({ timeField: "modified" });
      assert.equal(inside.isError, false);
    }
  },
});

Deno.test({
  name: "sandbox: no error names a root's absolute path or a path outside the roots",
  ...sanitize,
  async fn() {
    await using outside = await makeTree({ "SECRET.txt": { mtime: T0 } }, "fts-outside-");
    await using tree = await makeTree({ "docs/a.md": { mtime: T0 }, "b.txt": { mtime: T0 } });
    await Deno.symlink(outside.root, tree.abs("link-out"));
    // The caller's own root-relative path may be echoed; absolute paths never, but for the
    // allowed roots a RootNotAllowed lists (contract §23a: the client's own configuration).
    const secretWords = [tree.root, outside.root, path.dirname(tree.root) + path.sep];
    const check = (label: string, said: string) => {
      const text = /RootNotAllowed/.test(said)
        ? said.replaceAll(tree.root, "<an allowed root>")
        : said;
      for (const word of secretWords) {
        assert.ok(!text.includes(word), `${label} leaks ${word}: ${text}`);
      }
    };
    const calls: [Record<string, string>, Record<string, unknown>][] = [
      [{}, { timeField: "modified", root: outside.root }],
      [{}, { timeField: "modified", root: tree.abs("docs") }],
      [{}, { timeField: "modified", path: outside.root }],
      [{}, { timeField: "modified", path: "../" + path.basename(outside.root) }],
      [{}, { timeField: "modified", path: "link-out/x" }],
      [{}, { timeField: "modified", path: "link-out/SECRET.txt" }],
      [{}, { timeField: "modified", path: "missing/x" }],
      [{}, { timeField: "modified", cursor: "e30" }],
      [{ ON_LIMIT: "error", MAX_FILES_SCANNED: "1" }, { timeField: "modified" }],
      [{}, { timeField: "created", from: "yesterday" }],
    ];
    for (const [env, args] of calls) {
      await using conn = await connect({ ALLOW_ROOTS: tree.root, ...env }, {
        faults: [{ path: tree.abs("docs"), error: "Busy" }],
      });
      const result = await conn.search(args);
      assert.equal(result.isError, true, JSON.stringify(args));
      for (const item of result.content) {
        check(JSON.stringify(args), item.type === "text" ? item.text : "");
      }
      const failing = await conn.search({ timeField: "modified", path: "docs" });
      assert.match(textOf(failing), /^ErrorCode: IOFailure$/m);
      check("IOFailure", textOf(failing) + textOf(failing, 1));
    }
  },
});
