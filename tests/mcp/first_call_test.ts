/**
 * Right on the first call, round two (contract §9, §17, §23, §26), through the SDK client
 * and the real server, with the index on and off: any case (smart case, `caseSensitive`),
 * excludes by bare name at any depth, the empty answer of a glob without '/', and Fixes
 * that say what to send for the names and values models commonly get wrong.
 */
import assert from "node:assert/strict";
import type { SearchOutput } from "../../src/search/search_by_time.ts";
import { indexedServer } from "../helpers/indexed_server.ts";
import { NO_INDEX } from "../helpers/live_index.ts";
import { seenWhole } from "../helpers/model_view.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { connect, textOf } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";

const paths = (out: unknown) => (out as SearchOutput).matches.map((m) => m.path).sort();

/** A camera's photos, a spreadsheet, and a repository with what its tools leave behind. */
const TREE = {
  "photos/IMG_0001.JPG": { mtime: T0 },
  "photos/img_0002.jpg": { mtime: T0 },
  "money/Budget-2026.XLSX": { mtime: T0 },
  "repo/src/main.rs": { mtime: T0 },
  "repo/app/node_modules/x/index.js": { mtime: T0 },
  "repo/.git/HEAD": { mtime: T0 },
  "repo/crates/a/target/debug/a": { mtime: T0 },
  "repo/crates/a/src/lib.rs": { mtime: T0 },
  "notes/deep/plan.md": { mtime: T0 },
};

Deno.test({
  name: "first call: any case and excludes by name at any depth, the index and a walk alike",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree(TREE);
    await using s = await indexedServer(tree.root);
    const ask = async (args: Record<string, unknown>) => {
      // The index answers, and a fresh walk says the same (indexed_server.ts).
      assert.equal(await s.same({ timeField: "modified", ...args }), "index", "who answered");
      return (await s.conn.search({ timeField: "modified", ...args })).structuredContent;
    };
    assert.deepEqual(paths(await ask({ glob: "**/*.jpg" })), [
      "photos/IMG_0001.JPG",
      "photos/img_0002.jpg",
    ]);
    assert.deepEqual(paths(await ask({ glob: "**/*budget*" })), ["money/Budget-2026.XLSX"]);
    // An upper-case letter asks for that case; caseSensitive forces either.
    assert.deepEqual(paths(await ask({ glob: "**/*.JPG" })), ["photos/IMG_0001.JPG"]);
    assert.deepEqual(paths(await ask({ glob: "**/*.jpg", caseSensitive: true })), [
      "photos/img_0002.jpg",
    ]);
    assert.equal(paths(await ask({ glob: "**/*.JPG", caseSensitive: false })).length, 2);
    // Bare names at any depth; a name with '/' from the root.
    const left = await ask({ path: "repo", exclude: ["node_modules", ".git", "target"] });
    assert.deepEqual(paths(left), ["repo/crates/a/src/lib.rs", "repo/src/main.rs"]);
    assert.equal((left as SearchOutput).stats.excluded, 3);
    const anchored = await ask({ exclude: ["app/node_modules"], path: "repo" });
    assert.ok(paths(anchored).includes("repo/app/node_modules/x/index.js"), "anchored at root");
    // Excludes take smart case too.
    assert.deepEqual(paths(await ask({ path: "photos", exclude: ["*.jpg"] })), []);
    assert.deepEqual(paths(await ask({ path: "photos", exclude: ["*.JPG"] })), [
      "photos/img_0002.jpg",
    ]);
  },
});

Deno.test({
  name: "first call: a glob without '/' at the root says what '**/' would match",
  ...sanitize,
  async fn() {
    await using tree = await makeTree(TREE);
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const seen = seenWhole(await conn.search({ timeField: "modified", glob: "*.md" }));
    assert.equal(seen.matches.length, 0);
    const note = seen.notes?.find((n) => n.code === "GlobTopLevel");
    assert.ok(note, JSON.stringify(seen.notes));
    assert.match(note.message, /'\*\*\/\*\.md' matches at any depth/);
    // And that glob does find it.
    const deep = await conn.search({ timeField: "modified", glob: "**/*.md" });
    assert.deepEqual(paths(deep.structuredContent), ["notes/deep/plan.md"]);
  },
});

Deno.test({
  name: "first call: Fixes that say what to send, built from the input",
  ...sanitize,
  async fn() {
    await using tree = await makeTree(TREE);
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const fix = async (args: Record<string, unknown>) => {
      const result = await conn.search({ timeField: "modified", ...args });
      assert.equal(result.isError, true, JSON.stringify(args));
      return textOf(result);
    };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ order: "newest" }, /did you mean 'sort'\?\nFix: Use 'sort': "time_desc"/],
      [{ orderBy: "mtime" }, /did you mean 'sort'/],
      [{ maxResults: 20 }, /did you mean 'limit'\?\nFix: Use 'limit' \(1 to 1000\): "limit": 20\./],
      [{ count: 5000 }, /"limit": 10\./],
      [{ pattern: "*.md" }, /did you mean 'glob'\?\nFix: .*"glob": "\*\*\/\*\.md"/],
      [{ extension: ".pdf" }, /Fix: Use 'glob' for an extension: "glob": "\*\*\/\*\.pdf"/],
      [{ extensions: ["md", "txt"] }, /"glob": "\*\*\/\*\.\{md,txt\}"/],
      [
        { type: "directory" },
        /for folders only set "includeDirectories": true and "includeFiles": false/,
      ],
      [{ since: "7d" }, /Use 'within' for a time back from now \("within": "7d"\)/],
      [{ since: "2025-12-01" }, /Use 'from' for an instant: "from": "2025-12-01T00:00:00Z"/],
      [{ since: "yesterday" }, /Fix: Use 'period' for a calendar period: "period": "yesterday"\./],
      [{ since: "last 3 days" }, /Use 'within' for a time back from now \("within": "3d"\)/],
      [
        { since: "2025-12-01T00:00:00Z" },
        /Use 'from' for an instant: "from": "2025-12-01T00:00:00Z"/,
      ],
      [
        { folder: "~/notes" },
        /did you mean 'path'\?\nFix: Use 'path', relative to the root: "path": "notes"/,
      ],
      [
        { within: 3 },
        /Fix: Give 'within' a unit: "within": "3h" \(3 hours\) or "within": "3d" \(3 days\)/,
      ],
      [
        { from: 1764547200 },
        /"from": "2025-12-01T00:00:00.000Z" \(1764547200 read as epoch seconds\)/,
      ],
      [
        { to: 1764547200000 },
        /"to": "2025-12-01T00:00:00.000Z" \(1764547200000 read as epoch milliseconds\)/,
      ],
      [{ period: "this-weak" }, /Fix: Did you mean "period": "this_week"\?/],
      [
        { path: "~/Documents" },
        /^ErrorCode: PathNotFound\n.*\nFix: 'path' is relative to the root, and '~' is not expanded/,
      ],
    ];
    for (const [args, words] of cases) assert.match(await fix(args), words, JSON.stringify(args));
  },
});
