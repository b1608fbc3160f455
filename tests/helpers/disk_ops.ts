/**
 * The changes `tests/changes/changes_property_test.ts` makes to a tree, one at a time: files
 * made, written, removed, renamed and saved the editor's way (a temp file renamed over the
 * name), folders made, moved and removed with what they hold, entries made then removed. Each
 * picks its entry or folder from the tree as it is (in `snapshot` order), so the same ops on
 * the same tree make the same changes: `bench/watch_loss.ts` replays a failing run with them.
 *
 * @module
 */
import { join } from "node:path";
import { snapshot } from "./snapshot.ts";
import { T0 } from "./tree.ts";

/** One change, its entry or folder picked by number from the tree as it is. */
export type DiskOp =
  | { op: "write" | "mkdir" | "makeThenRemove"; name: string }
  | { op: "remove" | "save" | "touch"; pick: number }
  | { op: "move"; pick: number; to: number; name: string };

/**
 * Applies ops to the tree at `root` (its real path). Each write is given a time of its own, so
 * that a diff of times sees it; an op its picks make impossible (gone, taken, into itself) does
 * nothing.
 */
export function diskOps(root: string): (op: DiskOp) => void {
  let stamp = 0;
  /** A time of its own for each write. */
  const stamped = (abs: string) => {
    stamp++;
    Deno.utimeSync(abs, new Date(T0 + stamp * 1000), new Date(T0 + stamp * 1000));
  };
  return (op) => {
    const all = [...snapshot(root)].map(([path, seen]) => ({ path, dir: seen.isDirectory }));
    const folders = ["", ...all.filter((e) => e.dir).map((e) => e.path)];
    const files = all.filter((e) => !e.dir);
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
        if (
          !(err instanceof Error && /not empty|Is a directory|Not a directory/.test(err.message))
        ) {
          throw err;
        }
      }
    }
  };
}
