/**
 * Names the runtime cannot decode (contract §6): Deno gives U+FFFD for bytes that are not
 * UTF-8, so `\xff`, `\xfe` and a real `\uFFFD` all come back as one name. Such an entry is
 * never reported as another (with another's size or kind) nor walked twice: it is skipped
 * and counted, the real one kept, and paging over the folder stays exact; with the index
 * off, and on (answered by the index).
 */
import assert from "node:assert/strict";
import { allPages, engine } from "../helpers/engine.ts";
import { indexedServer } from "../helpers/indexed_server.ts";
import { NO_INDEX } from "../helpers/live_index.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";
import type { MatchOutput } from "../../src/search/search_by_time.ts";

const linux = Deno.build.os === "linux";
if (!linux) console.log("undecodable name tests skipped: only Linux takes any bytes in a name");
const ALL = { timeField: "modified", limit: 100, includeDirectories: true };
const R = "\uFFFD";

/** Runs `script` in `cwd` (names with bytes that are not UTF-8 can only be made this way). */
function sh(script: string, cwd: string): void {
  const out = new Deno.Command("sh", { args: ["-c", script], cwd }).outputSync();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

/**
 * bad1: two undecodable files and a real U+FFFD file; bad2: an undecodable folder and no
 * real one; bad3: an undecodable file beside a real U+FFFD folder.
 */
async function badTree() {
  const tree = await makeTree({ "ok.txt": { mtime: T0 } });
  sh(
    [
      "mkdir bad1 bad2 bad3",
      `printf a > "$(printf 'bad1/\\377')"`,
      `printf bb > "$(printf 'bad1/\\376')"`,
      `printf ccc > "bad1/${R}"`,
      `mkdir "$(printf 'bad2/\\377')" && printf x > "$(printf 'bad2/\\377/x.txt')"`,
      `printf dddd > "$(printf 'bad3/\\377')"`,
      `mkdir "bad3/${R}" && printf y > "bad3/${R}/y.txt"`,
      "touch -d @1748736000 bad1/* bad2/* bad3/* bad3/*/* bad2/*/* bad1 bad2 bad3",
    ].join(" && "),
    tree.root,
  );
  return tree;
}

/** What must come back: each real entry once, with its own size. */
const EXPECTED = [
  ["bad1", 0],
  [`bad1/${R}`, 3],
  ["bad2", 0],
  ["bad3", 0],
  [`bad3/${R}`, 0],
  [`bad3/${R}/y.txt`, 1],
  ["ok.txt", 6],
];

function shown(matches: MatchOutput[]) {
  return matches.map((m) => [m.path, m.isDirectory ? 0 : m.sizeBytes])
    .sort((a, b) => String(a[0]) < String(b[0]) ? -1 : 1);
}

Deno.test({
  name: "undecodable names: skipped and counted, the real one kept, paging exact (INDEX=off)",
  ignore: !linux,
  async fn() {
    await using tree = await badTree();
    const e = engine(tree.root, { env: { INDEX: "off" } });
    const out = await e.search(ALL);
    assert.deepEqual(shown(out.matches), EXPECTED);
    assert.equal(out.stats.skipped, 4); // \376 or \377 in bad1 (2), bad2's folder, bad3's file
    const pages = await allPages(e, { ...ALL, limit: 1 });
    assert.deepEqual(shown(pages.flatMap((p) => p.matches)), EXPECTED);
    assert.ok(pages.every((p) => p.matches.length === 1), "no empty page after a cursor");
  },
});

Deno.test({
  name: "undecodable names: the same from the index",
  ignore: !linux || NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await badTree();
    await using s = await indexedServer(tree.root);
    assert.deepEqual(shown(await s.matches(ALL)), EXPECTED);
    assert.equal(await s.same(ALL), "index");
    assert.equal(await s.same({ ...ALL, limit: 1 }), "index");
  },
});
