/**
 * src/index/watch/dropped_watches.ts and held_watches.ts `fewestToHold`, by themselves: a link
 * removed or moved, or a folder above links, gives the folders they led to once (then they
 * are forgotten); the old path of a folder below one moved unseen gives that folder when an
 * event names that very path, until a folder made there takes the path over; a path no alias
 * lies at or below costs a lookup and gives nothing; the folders to hold are each walked once,
 * none below another, and past the bound the nearest folder above them all, or the part itself.
 */
import assert from "node:assert/strict";
import { DroppedWatches, MOST_ALIASES } from "../../src/index/watch/dropped_watches.ts";
import { fewestToHold, MOST_AT_ONCE } from "../../src/index/watch/held_watches.ts";
import { makeTree, T0 } from "../helpers/tree.ts";

const ROOT = "/r";

Deno.test("dropped watches: a link removed, or a folder above links, gives where they led", () => {
  const aliases = new DroppedWatches(ROOT, "/");
  aliases.links([
    { path: "/r/node_modules/@me/pkg", target: "/r/packages/pkg" },
    { path: "/r/node_modules/.pnpm/pkg", target: "/r/packages/pkg" },
    { path: "/r/node_modules/two", target: "/r/packages/two" },
    { path: "/r/deploy/current", target: "/r/releases/v2" },
    { path: "/elsewhere/link", target: "/r/packages/pkg" }, // not below the root: not kept
  ]);
  assert.equal(aliases.size, 4);
  assert.deepEqual(aliases.gone("/r/packages/pkg"), [], "a folder no link lies at or below");
  assert.deepEqual(aliases.gone("/r/node_modules/@me/pkg"), ["/r/packages/pkg"]);
  assert.deepEqual(aliases.gone("/r/node_modules/@me/pkg"), [], "told once");
  assert.deepEqual(aliases.gone("/r/node_modules/@me"), [], "no link below it any more");
  assert.deepEqual(aliases.gone("/r/node_modules").sort(), ["/r/packages/pkg", "/r/packages/two"]);
  assert.deepEqual(aliases.gone("/r/node_modules/two"), []);
  assert.deepEqual(aliases.gone("/r/deploy"), ["/r/releases/v2"]);
  assert.equal(aliases.size, 0);
});

Deno.test("dropped watches: the old paths below a folder moved unseen, until taken over", async () => {
  await using tree = await makeTree({
    "new/d/e/f/a.txt": { mtime: T0 },
    "new/d/g/b.txt": { mtime: T0 },
  });
  const aliases = new DroppedWatches(tree.root, "/");
  aliases.moved(tree.abs("old/d"), tree.abs("new/d"));
  assert.equal(aliases.size, 3, "e, e/f and g; d's own old path went with the move's event");
  assert.deepEqual(aliases.gone(tree.abs("old/d")), []);
  assert.deepEqual(aliases.gone(tree.abs("old/d/e")), [tree.abs("new/d/e")]);
  assert.deepEqual(aliases.gone(tree.abs("old/d/e")), [], "told once");
  aliases.made(tree.abs("old/d/g")); // a folder made there: the path is its own now
  assert.deepEqual(aliases.gone(tree.abs("old/d/g")), []);
  assert.deepEqual(aliases.gone(tree.abs("old/d")), [], "only the very path, not below it");
  assert.deepEqual(aliases.gone(tree.abs("old/d/e/f")), [tree.abs("new/d/e/f")]);
});

Deno.test("dropped watches: what an event tells, as the runtime gives it", async () => {
  await using tree = await makeTree({
    "new/d/e/a.txt": { mtime: T0 },
    "there/b.txt": { mtime: T0 },
  });
  const dropped = new DroppedWatches(tree.root, "/");
  const old = (rel: string) => tree.abs(`old/d/${rel}`);
  dropped.moved(tree.abs("old/d"), tree.abs("new/d"));
  const e = [tree.abs("new/d/e")];
  // A file made at an old path leaves it the folder's; a removal there then drops the watch.
  assert.deepEqual(dropped.told({ kind: "create", paths: [old("e")] }), []);
  assert.deepEqual(dropped.told({ kind: "remove", paths: [old("e")] }), e);
  dropped.moved(tree.abs("old/d"), tree.abs("new/d"));
  // A rename naming one path: gone there, the old end (held); there, the new end (nothing).
  assert.deepEqual(dropped.told({ kind: "rename", paths: [tree.abs("there")] }), []);
  assert.deepEqual(dropped.told({ kind: "rename", paths: [old("e")] }), e);
  dropped.moved(tree.abs("old/d"), tree.abs("new/d"));
  // Both ends: the old one is away; a folder moved in at an old path takes it over.
  assert.deepEqual(dropped.told({ kind: "rename", paths: [old("e"), tree.abs("x")] }), e);
  dropped.moved(tree.abs("old/d"), tree.abs("new/d"));
  Deno.mkdirSync(tree.abs("old/d/e"), { recursive: true });
  assert.deepEqual(dropped.told({ kind: "rename", paths: [tree.abs("y"), old("e")] }), []);
  assert.deepEqual(dropped.told({ kind: "remove", paths: [old("e")] }), [], "taken over");
  assert.deepEqual(dropped.told({ kind: "modify", paths: [old("e")] }), []);
});

Deno.test("dropped watches: past the bound, those found later are not kept", () => {
  const aliases = new DroppedWatches(ROOT, "/");
  const many = Array.from({ length: MOST_ALIASES + 1 }, (_, i) => ({
    path: `/r/l${i}`,
    target: "/r/t",
  }));
  aliases.links(many);
  assert.equal(aliases.size, MOST_ALIASES);
  assert.deepEqual(aliases.gone(`/r/l${MOST_ALIASES}`), []);
});

Deno.test("fewest to hold: each once, none below another, past the bound the folder above", () => {
  assert.deepEqual(fewestToHold(["/r/a/b", "/r/a", "/r/c", "/r/a"], "/r", "/"), ["/r/a", "/r/c"]);
  assert.deepEqual(fewestToHold(["/r/ab", "/r/a"], "/r", "/"), ["/r/ab", "/r/a"], "not a prefix");
  const under = (n: number, dir: string) => Array.from({ length: n }, (_, i) => `${dir}/${i}`);
  assert.deepEqual(fewestToHold(under(MOST_AT_ONCE, "/r/n/x"), "/r", "/").length, MOST_AT_ONCE);
  const past = [...under(MOST_AT_ONCE, "/r/n/x"), "/r/n/y/z"];
  assert.deepEqual(fewestToHold(past, "/r", "/"), ["/r/n"]);
  assert.deepEqual(fewestToHold([...past, "/r/m"], "/r", "/"), ["/r"], "only the part above");
});
