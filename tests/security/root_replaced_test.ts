/**
 * The root itself is never a match (contract §6): a root folder replaced, while the server
 * runs, by a link (to anywhere) or by a file is refused as such, with the index off and
 * on, never scanned as an entry with an empty path.
 */
import assert from "node:assert/strict";
import { ToolError } from "../../src/errors.ts";
import { engine } from "../helpers/engine.ts";
import { indexedServer } from "../helpers/indexed_server.ts";
import { NO_INDEX } from "../helpers/live_index.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

const ARGS = { timeField: "modified", includeDirectories: true };

async function codeOf(call: () => Promise<unknown>): Promise<string> {
  try {
    return `answered ${JSON.stringify(await call())}`;
  } catch (err) {
    if (err instanceof ToolError) return err.code;
    throw err;
  }
}

Deno.test("root replaced: by a link or by a file, the walk refuses it, never a match ''", async () => {
  await using outside = await makeTree({ "secret.txt": { mtime: T0 } }, "fts-outside-");
  await using tree = await makeTree({ "a.txt": { mtime: T0 } });
  const walk = engine(tree.root); // configured while the root is a folder
  const old = `${tree.root}-old`;
  Deno.renameSync(tree.root, old);
  try {
    Deno.symlinkSync(outside.root, tree.root);
    assert.equal(await codeOf(() => walk.search(ARGS)), "SymlinkEscapeDetected");
    Deno.removeSync(tree.root);
    Deno.writeTextFileSync(tree.root, "a file now");
    assert.equal(await codeOf(() => walk.search(ARGS)), "PathNotFound");
  } finally {
    Deno.removeSync(tree.root);
    Deno.renameSync(old, tree.root);
  }
});

Deno.test({
  name: "root replaced: by a link, the indexed server refuses it too",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using outside = await makeTree({ "secret.txt": { mtime: T0 } }, "fts-outside-");
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    await using s = await indexedServer(tree.root);
    const old = `${tree.root}-old`;
    Deno.renameSync(tree.root, old);
    try {
      Deno.symlinkSync(outside.root, tree.root);
      const result = await s.conn.search(ARGS);
      assert.equal(result.isError, true, JSON.stringify(result.structuredContent));
      assert.match(JSON.stringify(result.content), /SymlinkEscapeDetected/);
    } finally {
      Deno.removeSync(tree.root);
      Deno.renameSync(old, tree.root);
    }
  },
});
