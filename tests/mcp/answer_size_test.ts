/**
 * Each fact once, in few characters (contract §24a): on the answers of docs/examples.md
 * (checked current by docs_examples_test.ts), what a search answer says besides its
 * matches is at most 600 characters, and a changes answer besides its changes at most 500;
 * `tools/list` is at most 14,000 characters in both tool-name styles, with every argument
 * still taught (each has a description).
 */
import assert from "node:assert/strict";
import { sanitize } from "../helpers/sanitize.ts";
import { connect } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";

const EXAMPLES = new URL("../../docs/examples.md", import.meta.url);

/** Each example's title and structured result. */
function examples(): { title: string; structured: Record<string, unknown> }[] {
  const md = Deno.readTextFileSync(EXAMPLES);
  const out = [];
  for (
    const [, title, json] of md.matchAll(/## (.*)\n[\s\S]*?Response:\n\n```json\n([\s\S]*?)\n```/g)
  ) {
    const structured = JSON.parse(json!).result?.structuredContent;
    if (structured && !("roots" in structured)) out.push({ title: title!, structured });
  }
  return out;
}

Deno.test("answer size: the fixed part of each example's answer is within its target", () => {
  const seen = { search: 0, changes: 0 };
  for (const { title, structured } of examples()) {
    const changes = "changes" in structured;
    const fixed = JSON.stringify({ ...structured, [changes ? "changes" : "matches"]: [] }).length;
    const most = changes ? 500 : 600;
    assert.ok(fixed <= most, `${title}: ${fixed} characters besides its entries (at most ${most})`);
    seen[changes ? "changes" : "search"]++;
    // Each fact once: the server's time and zone are two fields, said nowhere else.
    const text = JSON.stringify(structured);
    assert.equal(text.split(structured.serverTime as string).length, 2, `${title}: the time`);
    assert.ok(!("localTime" in structured) && !("window" in structured) && !("sort" in structured));
  }
  assert.ok(seen.search >= 6 && seen.changes >= 2, JSON.stringify(seen));
});

Deno.test({
  name: "answer size: tools/list within 14,000 characters, every argument described",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.md": { mtime: T0 } });
    for (const style of ["dotted", "underscore"]) {
      await using conn = await connect({ ALLOW_ROOTS: tree.root, TOOL_NAMES: style });
      const listed = await conn.client.listTools();
      const size = JSON.stringify(listed).length;
      assert.ok(size <= 14_000, `${style}: tools/list is ${size} characters`);
      for (const tool of listed.tools) {
        for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
          const description = (property as { description?: string }).description ?? "";
          assert.ok(description.length >= 15, `${tool.name}: '${name}' is not taught`);
        }
      }
    }
  },
});
