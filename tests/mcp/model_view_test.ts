/**
 * The whole answer in every client (contract §4): Claude Code, Codex and VS Code hand a
 * model only `JSON.stringify(structuredContent)`. Through the SDK client and the real
 * server, every example of docs/examples.md and every note (window words, a lower-bound
 * count, the empty-answer hints, a page cut for size, a truncated scan, skipped entries)
 * reaches such a model, each fact from its own field (`seenWhole`), and an error's three
 * lines reach it as text.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { EXAMPLES, makeExampleTree } from "../../docs/examples.ts";
import { indexedServer } from "../helpers/indexed_server.ts";
import { NO_INDEX } from "../helpers/live_index.ts";
import { changesSeenWhole, modelView, seenWhole } from "../helpers/model_view.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { connect, rootIndex } from "../helpers/server.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { until } from "../helpers/until.ts";

/** `n` files a day apart, in six folders, with names of `nameLength` characters or so. */
function files(n: number, nameLength = 8): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < n; i++) {
    spec[`d${i % 6}/f${String(i).padStart(nameLength, "x")}.txt`] = { mtime: T0 - i * DAY };
  }
  return spec;
}

Deno.test({
  name: "model view: every example of docs/examples.md reaches a model shown structuredContent",
  ...sanitize,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "fts-examples-" });
    const root = path.join(dir, "Documents");
    try {
      await makeExampleTree(root);
      await using conn = await connect({ ALLOW_ROOTS: root, TZ: "Asia/Seoul" });
      if (!NO_INDEX) {
        await until(async () => (await rootIndex(conn)).state === "ready", "the index");
      }
      const cursors = new Map<number, string>();
      const clocks = new Map<number, string>();
      let calls = 0;
      for (const { request, before } of EXAMPLES) {
        if (request.method !== "tools/call") continue;
        await before?.(root);
        let text = JSON.stringify(request.params);
        for (const [id, cursor] of cursors) text = text.replace(`CURSOR_FROM_${id}`, cursor);
        for (const [id, clock] of clocks) text = text.replace(`CLOCK_FROM_${id}`, clock);
        const params = JSON.parse(text) as { name: string; arguments: Record<string, unknown> };
        const result = await conn.client.callTool(params) as Parameters<typeof seenWhole>[0];
        calls++;
        if (result.isError) {
          // No structuredContent: the three lines are what the model reads.
          assert.equal(result.structuredContent, undefined);
          assert.match(modelView(result), /^ErrorCode: \w+\nMessage: .+\nFix: .+/);
          continue;
        }
        if (params.name === "fs.changes_since") {
          const seen = changesSeenWhole(result);
          assert.match(seen.summary, /since .* local time/);
          assert.deepEqual(seen.timeZone, { name: "Asia/Seoul", offset: "+09:00" });
          continue;
        }
        if (params.name === "fs.list_roots") {
          const seen = JSON.parse(modelView(result));
          clocks.set(request.id as number, seen.roots[0].clock);
          assert.match(seen.summary, /searchable folder/);
          assert.doesNotMatch(seen.summary, /Server time/, "the time is its own field");
          continue;
        }
        const seen = seenWhole(result);
        clocks.set(request.id as number, (seen as unknown as { clock: string }).clock);
        const next = (seen as unknown as { nextCursor: string | null }).nextCursor;
        if (next) cursors.set(request.id as number, next);
        if (params.arguments.within || params.arguments.period) {
          assert.match(seen.summary, /Window: .* local time\./, "the window in the server's zone");
        }
        assert.deepEqual(seen.timeZone, { name: "Asia/Seoul", offset: "+09:00" });
      }
      assert.ok(calls >= 8, `${calls} tool calls among the examples`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "model view: the window, hints, a truncated scan and a page cut for size",
  ...sanitize,
  async fn() {
    await using tree = await makeTree(files(40, 120));
    await using conn = await connect({
      ALLOW_ROOTS: tree.root,
      INDEX: "off",
      TZ: "Europe/Paris",
      MAX_RESULT_CHARS: "4000",
    });
    const codes = (args: Record<string, unknown>) =>
      conn.search({ timeField: "modified", ...args }).then((r) => {
        const seen = seenWhole(r);
        return { seen, codes: (seen.notes ?? []).map((n) => n.code), size: modelView(r).length };
      });
    // Window words, in the server's zone, from their own fields.
    const within = await codes({
      from: new Date(T0 - 2 * DAY).toISOString(),
      to: new Date(T0 + DAY).toISOString(),
    });
    assert.match(
      within.seen.summary,
      /Window: from 2025-05-30 02:00 to 2025-06-02 02:00 local time\.$/,
    );
    assert.equal(within.seen.timeZone.name, "Europe/Paris");
    // A page cut to keep the answer within MAX_RESULT_CHARS, words and all.
    const cut = await codes({ limit: 40 });
    assert.ok(cut.codes.includes("CutForSize"), cut.codes.join());
    assert.ok(cut.size <= 4000, `the whole structured result is ${cut.size} characters`);
    // The empty-answer hints.
    const hint = async (args: Record<string, unknown>, code: string, words: RegExp) => {
      const { seen } = await codes(args);
      const note = seen.notes?.find((n) => n.code === code);
      assert.ok(note, `${code} for ${JSON.stringify(args)}: ${JSON.stringify(seen.notes)}`);
      assert.match(note.message, words);
    };
    await hint({ path: "d1", glob: "*.txt" }, "GlobFromRoot", /try glob 'd1\/\*\.txt' or/);
    await hint({ glob: "/d1/*.txt" }, "AbsoluteGlob", /try 'd1\/\*\.txt'/);
    await hint({ includeFiles: false }, "NothingToList", /includeDirectories to true/);
    // A scan that reached a server limit: its count is not a total.
    await using small = await connect({
      ALLOW_ROOTS: tree.root,
      INDEX: "off",
      MAX_FILES_SCANNED: "10",
      ON_LIMIT: "partial",
    });
    const truncated = seenWhole(await small.search({ timeField: "modified", limit: 5 }));
    const truncatedCodes = (truncated.notes ?? []).map((n) => n.code);
    assert.ok(truncatedCodes.includes("Truncated"), truncatedCodes.join());
    assert.match(truncated.summary, /the total is not known/);
    assert.equal(truncated.stats.totalMatches, undefined);
  },
});

Deno.test({
  name: "model view: an indexed count that is a lower bound says so in its fields",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using tree = await makeTree(files(60));
    await using s = await indexedServer(tree.root, {}, { countBudget: 10 });
    const before = (await s.info()).answers!.index;
    // With a glob, what the cut leaves out is not counted from memory (exact_drops.ts).
    const glob = "**/*.txt";
    const seen = seenWhole(await s.conn.search({ timeField: "modified", limit: 20, glob }));
    assert.equal((await s.info()).answers!.index, before + 1, "answered by the index");
    assert.match(seen.summary, /^Found more than 20 files; the total was not counted/);
    assert.equal(seen.stats.matchesAtLeast, 21);
  },
});

Deno.test({
  name: "model view: entries that could not be read are said in the fields",
  ignore: Deno.build.os !== "linux",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "ok.txt": { mtime: T0 } });
    // A name whose bytes are not UTF-8 cannot be read back by its decoded name: skipped.
    const made = new Deno.Command("sh", {
      args: ["-c", `printf a > "$(printf 'bad\\377')"`],
      cwd: tree.root,
    }).outputSync();
    assert.ok(made.success);
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const seen = seenWhole(await conn.search({ timeField: "modified" }));
    const note = seen.notes?.find((n) => n.code === "Skipped");
    assert.ok(note, JSON.stringify(seen.notes));
    assert.match(note.message, /^1 entry could not be read and was skipped\.$/);
  },
});
