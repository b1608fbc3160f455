/**
 * `deno run -A bench/watch_loss.ts [--tries 40]`: a folder the runtime's watcher stops
 * reporting (Deno 2.9's `notify` 8.2.0, inotify). It replays, against `Deno.watchFs` alone,
 * the 50 batches after which `tests/changes/changes_property_test.ts` (3,000 batches instead
 * of 25, two CPU-bound processes beside it) missed every change in `f-moved/b-dir/a-moved`
 * (bench/watch_loss_batches.json, its `apply`, the same tree), then writes a file in each
 * folder and says each whose file raised no event. Here 7 of 40 tries lost that folder with
 * two `yes > /dev/null` beside it, and 1 of 40 without them.
 *
 * Batch 48 does it: a folder D holding DD (which holds b-dir) sees DD moved out to the root,
 * then D moved into DD's b-dir. Read by notify 8.2.0 (notify/src/inotify.rs): when a run of
 * events ends after DD's move and before D's, the walk that watches DD's new place finds D
 * there, and the kernel gives that path D's own watch; D's old path still names it, and when
 * the next run removes the old path, that watch goes too, with nothing to add it back. notify
 * 9 (its release candidates) releases a watch only when no path uses it any more.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  args: Deno.args,
  options: { tries: { type: "string", default: "40" } },
});
type Op = { op: string; name?: string; pick?: number; to?: number };
const BATCHES: Op[][] = JSON.parse(
  Deno.readTextFileSync(new URL("./watch_loss_batches.json", import.meta.url)),
);
const T0 = Date.UTC(2025, 5, 1);

/** Every entry below `root`, folders before what they hold, as the property test lists them. */
function entries(root: string, rel = ""): { path: string; isDirectory: boolean }[] {
  const out: { path: string; isDirectory: boolean }[] = [];
  for (const entry of Deno.readDirSync(rel === "" ? root : join(root, rel))) {
    const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
    const isDirectory = Deno.lstatSync(join(root, path)).isDirectory;
    out.push({ path, isDirectory });
    if (isDirectory) out.push(...entries(root, path));
  }
  return out;
}

/** One try: the batches replayed on a new tree under a watch; the folders that went silent. */
async function replay(): Promise<string[]> {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "watch-loss-" }));
  Deno.mkdirSync(join(root, "a/b"), { recursive: true });
  for (const f of ["a/b/c.txt", "d.txt"]) Deno.writeTextFileSync(join(root, f), "x");
  let stamp = 0;
  const stamped = (abs: string) => {
    const t = new Date(T0 + ++stamp * 1000);
    Deno.utimeSync(abs, t, t);
  };
  const apply = (op: Op) => {
    const all = entries(root);
    const folders = ["", ...all.filter((e) => e.isDirectory).map((e) => e.path)];
    const files = all.filter((e) => !e.isDirectory);
    const at = (rel: string) => join(root, rel);
    const inFolder = (n: number, name: string) => {
      const dir = folders[n % folders.length]!;
      return dir === "" ? name : `${dir}/${name}`;
    };
    if (op.op === "write") {
      const path = at(inFolder(stamp, op.name!));
      Deno.writeTextFileSync(path, "x".repeat(stamp % 7));
      stamped(path);
    } else if (op.op === "mkdir") Deno.mkdirSync(at(inFolder(stamp, op.name + "-dir")));
    else if (op.op === "makeThenRemove") {
      const path = at(inFolder(stamp, op.name + ".tmp"));
      Deno.writeTextFileSync(path, "t");
      Deno.removeSync(path);
    } else if (op.op === "remove" && all.length > 0) {
      Deno.removeSync(at(all[op.pick! % all.length]!.path), { recursive: true });
    } else if (op.op === "touch" && files.length > 0) {
      stamped(at(files[op.pick! % files.length]!.path));
    } else if (op.op === "save" && files.length > 0) {
      const target = at(files[op.pick! % files.length]!.path);
      Deno.writeTextFileSync(target + ".swp", "saved");
      stamped(target + ".swp");
      Deno.renameSync(target + ".swp", target);
    } else if (op.op === "move" && all.length > 0) {
      const from = all[op.pick! % all.length]!.path;
      const dir = folders[op.to! % folders.length]!;
      if (dir === from || dir.startsWith(from + "/")) return; // not into itself
      Deno.renameSync(at(from), at(inFolder(op.to!, op.name + "-moved")));
    }
  };
  const seen = new Set<string>();
  const watcher = Deno.watchFs(root, { recursive: true });
  const reading = (async () => {
    for await (const event of watcher) for (const p of event.paths) seen.add(p);
  })();
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const batch of BATCHES) {
    for (const op of batch) {
      try {
        apply(op);
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.AlreadyExists)) {
          if (
            !(err instanceof Error && /not empty|Is a directory|Not a directory/.test(err.message))
          ) throw err;
        }
      }
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 300)); // the watcher's runs end
  const folders = ["", ...entries(root).filter((e) => e.isDirectory).map((e) => e.path)];
  seen.clear();
  for (const [i, f] of folders.entries()) Deno.writeTextFileSync(join(root, f, `probe-${i}`), "");
  await new Promise((resolve) => setTimeout(resolve, 500));
  watcher.close();
  await reading;
  const silent = folders.filter((f, i) => !seen.has(join(root, f, `probe-${i}`)));
  Deno.removeSync(root, { recursive: true });
  return silent;
}

let lost = 0;
const tries = Number(values.tries);
for (let t = 1; t <= tries; t++) {
  const silent = await replay();
  if (silent.length > 0) lost++, console.log(`try ${t}: no event from ${silent.join(", ")}`);
}
console.log(`${lost} of ${tries} tries lost a folder's watch (Deno ${Deno.version.deno})`);
