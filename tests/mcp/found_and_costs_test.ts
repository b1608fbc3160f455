/**
 * Found by tool search, shown with an icon, and honest about its cost (contract §4), through
 * the SDK client and the real server: both tools' titles and descriptions carry the words
 * people use for the job and stay within what Claude Code hands a model whole (2,048
 * characters: it cuts longer ones, anthropics/claude-code#41593, #87650); `serverInfo`
 * carries a PNG and an SVG icon as `data:` URIs; `fs.list_roots` gives each root's watches
 * and index memory and the server's resident memory.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { NO_INDEX } from "../helpers/live_index.ts";
import { inotifyWatches } from "../helpers/inotify.ts";
import { indexKeeper } from "../helpers/sessions.ts";
import { modelView } from "../helpers/model_view.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { connect, rootIndex } from "../helpers/server.ts";
import { makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";

/** The words people say when they want this tool (contract §4). */
/** What people ask when they want to know what changed (contract §24). */
const CHANGE_WORDS = [
  "recent",
  "what changed",
  "since",
  "created",
  "modified",
  "renamed",
  "removed",
  "deleted",
];

const WORDS = [
  "recent",
  "recently changed",
  "newest",
  "latest",
  "modified",
  "created",
  "today",
  "this week",
];

/** Claude Code cuts a tool description past this many characters. */
const SHOWN_WHOLE = 2048;

Deno.test({
  name: "found: both tools carry the words people use, within what a client shows whole",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    for (const style of ["dotted", "underscore"]) {
      await using conn = await connect({ ALLOW_ROOTS: tree.root, TOOL_NAMES: style });
      const { tools } = await conn.client.listTools();
      assert.equal(tools.length, 3);
      for (const tool of tools) {
        const text = `${tool.title} ${tool.description}`.toLowerCase();
        const words = tool.name.includes("changes") ? CHANGE_WORDS : WORDS;
        const missing = words.filter((w) => !text.includes(w));
        assert.deepEqual(missing, [], `${tool.name} lacks ${missing.join(", ")}`);
        assert.match(tool.title ?? "", /recent/i, `${tool.name}'s title`);
        assert.ok(
          tool.description!.length <= SHOWN_WHOLE,
          `${tool.name}: ${tool.description!.length} characters`,
        );
      }
      // Still teaching the arguments.
      assert.match(tools[0]!.description!, /within: '24h'/);
      assert.match(tools[0]!.description!, /period: 'today'/);
    }
  },
});

Deno.test({
  name: "found: serverInfo carries a PNG and an SVG icon as data: URIs",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    const info = conn.client.getServerVersion() as {
      title?: string;
      icons?: { src: string; mimeType?: string; sizes?: string[] }[];
    };
    assert.equal(info.title, "File Time Search");
    const icons = info.icons ?? [];
    const png = icons.find((i) => i.mimeType === "image/png");
    assert.ok(png, JSON.stringify(icons.map((i) => i.mimeType)));
    const bytes = Buffer.from(png.src.replace(/^data:image\/png;base64,/, ""), "base64");
    assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG");
    assert.equal(bytes.readUInt32BE(16), 48, "48 pixels wide");
    assert.deepEqual(png.sizes, ["48x48"]);
    const svg = icons.find((i) => i.mimeType === "image/svg+xml");
    assert.ok(svg);
    assert.match(atob(svg.src.replace(/^data:image\/svg\+xml;base64,/, "")), /^<svg /);
  },
});

/** Five folders of two files each. */
function folders(): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 2; j++) spec[`d${i}/f${j}.txt`] = { mtime: T0 };
  }
  return spec;
}

Deno.test({
  name: "costs: fs.list_roots gives each root's watches and index memory, and the server's RSS",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree(folders());
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    await until(async () => (await rootIndex(conn)).state === "ready", "the index");
    await conn.search({ timeField: "modified" });
    type Listed = {
      summary: string;
      memory: { rssBytes: number; heapBytes: number };
      roots: { index: { watches?: number; memoryBytes?: number; answers: { index: number } } }[];
    };
    const listed = JSON.parse(
      modelView(await conn.client.callTool({ name: "fs.list_roots", arguments: {} })),
    ) as Listed;
    assert.match(listed.summary, /^1 searchable folder; the default is /);
    const { index } = listed.roots[0]!;
    assert.equal(index.answers.index, 1, "the index answered");
    // The root and its five folders, one watch each.
    assert.equal(index.watches, 6);
    const held = inotifyWatches(indexKeeper(conn, tree.root));
    // The process holds those and its private folder's (contract §13).
    if (held !== null) assert.ok(held >= 6 && held <= 7, `${held} inotify watches`);
    assert.ok(index.memoryBytes! > 0 && index.memoryBytes! < 256 * 2 ** 20, `${index.memoryBytes}`);
    assert.ok(listed.memory.rssBytes > 10 * 2 ** 20, `RSS ${listed.memory.rssBytes}`);
    assert.ok(listed.memory.heapBytes > 0 && listed.memory.heapBytes < listed.memory.rssBytes);
  },
});

Deno.test({
  name: "costs: with INDEX=off, fs.list_roots still gives the server's memory",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const listed = (await conn.client.callTool({ name: "fs.list_roots", arguments: {} }))
      .structuredContent as { memory: { rssBytes: number }; roots: { index: object }[] };
    assert.ok(listed.memory.rssBytes > 0);
    assert.equal("watches" in listed.roots[0]!.index, false, "no index, no watches");
  },
});
