/**
 * `fs.changes_since` against a diff of the disk (contract §24), on random batches of
 * changes through the real server and watcher: files made, written, removed, renamed and
 * saved the editor's way (a temp file renamed over the name), folders made, moved and
 * removed with what they hold, entries made then removed in the same batch. After each
 * batch, right away (the barrier), the changes since the clock of the batch before are the
 * net changes between two `lstat` walks, renames counted as a removal and a creation; and
 * the answer came from the journal; with two CPU-bound processes beside the server. Each write is given a time of its own, so that a diff
 * of times sees every change the server reports.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "npm:fast-check@4.10.2";
import type { Connection } from "../helpers/server.ts";
import { cpuHogs, indexedServer } from "../helpers/indexed_server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { assertSameChanges, type ServerChange, snapshot } from "../helpers/snapshot.ts";
import { sanitize } from "../helpers/sanitize.ts";

const NAME = fc.constantFrom("a", "b", "c", "d.txt", "e.md", "f");
const OP = fc.oneof(
  fc.record({ op: fc.constantFrom("write", "mkdir", "makeThenRemove"), name: NAME }),
  fc.record({ op: fc.constantFrom("remove", "save", "touch"), pick: fc.nat() }),
  fc.record({ op: fc.constant("move"), pick: fc.nat(), to: fc.nat(), name: NAME }),
);
type Op = typeof OP extends fc.Arbitrary<infer T> ? T : never;

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

let stamp = 0;
/** A time of its own for each write, so that a diff of times sees it. */
function stamped(abs: string): void {
  stamp++;
  Deno.utimeSync(abs, new Date(T0 + stamp * 1000), new Date(T0 + stamp * 1000));
}

/** Every entry under `root` (root-relative), folders first in walk order. */
function entries(root: string): { path: string; isDirectory: boolean }[] {
  return [...snapshot(root)].map(([path, seen]) => ({ path, isDirectory: seen.isDirectory }));
}

/** Applies one change to the tree; `root` is its real path. */
function apply(root: string, op: Op): void {
  const all = entries(root);
  const folders = ["", ...all.filter((e) => e.isDirectory).map((e) => e.path)];
  const files = all.filter((e) => !e.isDirectory);
  const at = (rel: string) => join(root, rel);
  const folder = (n: number) => folders[n % folders.length]!;
  const inFolder = (dir: string, name: string) => (dir === "" ? name : `${dir}/${name}`);
  try {
    switch (op.op) {
      case "write": {
        const path = at(inFolder(folder(stamp), op.name));
        Deno.writeTextFileSync(path, "x".repeat(stamp % 7));
        stamped(path);
        break;
      }
      case "mkdir":
        Deno.mkdirSync(at(inFolder(folder(stamp), op.name + "-dir")));
        break;
      case "makeThenRemove": {
        const path = at(inFolder(folder(stamp), op.name + ".tmp"));
        Deno.writeTextFileSync(path, "t");
        Deno.removeSync(path);
        break;
      }
      case "remove": {
        if (all.length === 0) break;
        Deno.removeSync(at(all[op.pick % all.length]!.path), { recursive: true });
        break;
      }
      case "touch": {
        if (files.length === 0) break;
        stamped(at(files[op.pick % files.length]!.path));
        break;
      }
      case "save": {
        if (files.length === 0) break;
        const target = at(files[op.pick % files.length]!.path);
        const temp = target + ".swp";
        Deno.writeTextFileSync(temp, "saved");
        stamped(temp);
        Deno.renameSync(temp, target);
        break;
      }
      case "move": {
        if (all.length === 0) break;
        const from = all[op.pick % all.length]!.path;
        const dir = folder(op.to);
        if (dir === from || dir.startsWith(from + "/")) break; // not into itself
        Deno.renameSync(at(from), at(inFolder(dir, op.name + "-moved")));
        break;
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.AlreadyExists)) {
      if (!(err instanceof Error && /not empty|Is a directory|Not a directory/.test(err.message))) {
        throw err;
      }
    }
  }
}

Deno.test({
  name: "changes since each clock are the disk's net changes, on random batches",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a/b/c.txt": { mtime: T0 }, "d.txt": { mtime: T0 } });
    const root = Deno.realPathSync(tree.root);
    await using server = await indexedServer(tree.root);
    await using _hogs = cpuHogs(); // the watcher's thread competes for both cores
    let clock = (await changesSince(server.conn, "1h")).clock;
    await fc.assert(
      fc.asyncProperty(fc.array(OP, { minLength: 1, maxLength: 8 }), async (ops) => {
        const before = snapshot(root);
        for (const op of ops) apply(root, op);
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
