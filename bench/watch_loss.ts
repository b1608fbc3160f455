/**
 * `deno run -A bench/watch_loss.ts [--tries 40]`: a folder the runtime's watcher stops
 * reporting (Deno 2.9's `notify` 8.2.0, inotify). It replays, against `Deno.watchFs` alone,
 * the 50 batches after which `tests/changes/changes_property_test.ts` (3,000 batches instead
 * of 25, two CPU-bound processes beside it) missed every change in `f-moved/b-dir/a-moved`
 * (bench/watch_loss_batches.json; its changes, tests/helpers/disk_ops.ts; the same tree),
 * then writes a file in each
 * folder and says each whose file raised no event. Here 7 of 40 tries lost that folder with
 * two `yes > /dev/null` beside it, and 1 of 40 without them.
 *
 * Batch 48 does it: a folder D holding DD (which holds b-dir) sees DD moved out to the root,
 * then D moved into DD's b-dir. Read by notify 8.2.0 (notify/src/inotify.rs): when a run of
 * events ends after DD's move and before D's, the walk that watches DD's new place finds D
 * there, and the kernel gives that path D's own watch; D's old path still names it, and when
 * the next run removes the old path, that watch goes too, with nothing to add it back. notify
 * 9 (its release candidates) releases a watch only when no path uses it any more. This replays
 * the runtime alone: the server finds D by its inode and holds it again
 * (src/index/watch/held_watches.ts; docs/index.md, "A folder the runtime stops watching").
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type DiskOp, diskOps } from "../tests/helpers/disk_ops.ts";
import { snapshot } from "../tests/helpers/snapshot.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { tries: { type: "string", default: "40" } },
});
const BATCHES: DiskOp[][] = JSON.parse(
  Deno.readTextFileSync(new URL("./watch_loss_batches.json", import.meta.url)),
);
/** One try: the batches replayed on a new tree under a watch; the folders that went silent. */
async function replay(): Promise<string[]> {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "watch-loss-" }));
  Deno.mkdirSync(join(root, "a/b"), { recursive: true });
  for (const f of ["a/b/c.txt", "d.txt"]) Deno.writeTextFileSync(join(root, f), "x");
  const apply = diskOps(root);
  const seen = new Set<string>();
  const watcher = Deno.watchFs(root, { recursive: true });
  const reading = (async () => {
    for await (const event of watcher) for (const p of event.paths) seen.add(p);
  })();
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (const batch of BATCHES) for (const op of batch) apply(op);
  await new Promise((resolve) => setTimeout(resolve, 300)); // the watcher's runs end
  const below = [...snapshot(root)].filter(([, seen]) => seen.isDirectory).map(([path]) => path);
  const folders = ["", ...below];
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
