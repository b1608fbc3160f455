/**
 * `fs.changes_since` against a diff of the disk (contract §24), on random batches of
 * changes through the real server and watcher (tests/helpers/disk_ops.ts): files made,
 * written, removed, renamed and saved the editor's way (a temp file renamed over the name),
 * folders made, moved and removed with what they hold, entries made then removed in the same
 * batch. After each
 * batch, right away (the barrier), the changes since the clock of the batch before are the
 * net changes between two `lstat` walks, renames counted as a removal and a creation; and
 * the answer came from the journal; with two CPU-bound processes beside the server. Each write is given a time of its own, so that a diff
 * of times sees every change the server reports.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import type { Connection } from "../helpers/server.ts";
import { cpuHogs, indexedServer } from "../helpers/indexed_server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { assertSameChanges, type ServerChange, snapshot } from "../helpers/snapshot.ts";
import { diskOps } from "../helpers/disk_ops.ts";
import { sanitize } from "../helpers/sanitize.ts";

const NAME = fc.constantFrom("a", "b", "c", "d.txt", "e.md", "f");
const OP = fc.oneof(
  fc.record({ op: fc.constantFrom("write", "mkdir", "makeThenRemove"), name: NAME }),
  fc.record({ op: fc.constantFrom("remove", "save", "touch"), pick: fc.nat() }),
  fc.record({ op: fc.constant("move"), pick: fc.nat(), to: fc.nat(), name: NAME }),
);

interface Answer {
  clock: string;
  freshInstance: boolean;
  reason?: string;
  changes: ServerChange[];
}

async function changesSince(conn: Connection, since: string): Promise<Answer> {
  const result = await conn.client.callTool({
    name: "fs.changes_since",
    arguments: { since, includeDirectories: true, expand: true, limit: 1000 },
  });
  assert.equal(result.isError, false, JSON.stringify(result.content));
  return result.structuredContent as unknown as Answer;
}

Deno.test({
  name: "changes since each clock are the disk's net changes, on random batches",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a/b/c.txt": { mtime: T0 }, "d.txt": { mtime: T0 } });
    const root = Deno.realPathSync(tree.root);
    await using server = await indexedServer(tree.root);
    await using _hogs = cpuHogs(); // the watcher's thread competes for both cores
    const apply = diskOps(root);
    let clock = (await changesSince(server.conn, "1h")).clock;
    await fc.assert(
      fc.asyncProperty(fc.array(OP, { minLength: 1, maxLength: 8 }), async (ops) => {
        const before = snapshot(root);
        for (const op of ops) apply(op);
        const after = snapshot(root);
        const got = await changesSince(server.conn, clock);
        assert.equal(got.freshInstance, false, got.reason);
        assertSameChanges(got.changes, before, after, JSON.stringify(ops));
        clock = got.clock;
      }),
      // Each batch runs on the tree the ones before left: shrinking would mislead.
      { numRuns: 25, endOnFailure: true },
    );
  },
});
