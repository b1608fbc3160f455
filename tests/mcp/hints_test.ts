/**
 * Words that steer a model (contract §23), through the SDK client: did-you-mean for
 * unknown names, date-time errors that name the mistake and offer the corrected value,
 * hints on empty answers, gitignore-style excludes refused with the fix, and the list tool
 * named when a root is refused.
 */
import assert from "node:assert/strict";
import { sanitize } from "../helpers/sanitize.ts";
import { connect, textOf } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";

Deno.test({
  name: "hints: unknown names, date-times, empty answers, excludes and roots",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({
      "docs/a.md": { mtime: T0 },
      "docs/b.txt": { mtime: T0 },
      "node_modules/x.js": { mtime: T0 },
    });
    await using conn = await connect({ ALLOW_ROOTS: tree.root, INDEX: "off" });
    const text = async (args: Record<string, unknown>) => textOf(await conn.search(args));

    // Unknown names: the closest known one; a misspelled required name is named as unknown.
    assert.match(
      await text({ timeField: "modified", max_depth: 2 }),
      /^ErrorCode: InvalidArgument\nMessage: 'max_depth' is not an argument; did you mean 'maxDepth'\?/,
    );
    assert.match(
      await text({ timefield: "modified" }),
      /Message: 'timefield' is not an argument; did you mean 'timeField'\?/,
    );
    assert.match(
      await text({ timeField: "modified", colour: "red" }),
      /'colour' is not an argument\./,
    );

    // Date-times: the actual mistake, and the value it was likely meant as.
    const cases: [string, RegExp, string | null][] = [
      ["2026-11-22 19:00:00Z", /has ' ' where RFC 3339 wants 'T'/, "2026-11-22T19:00:00Z"],
      ["2026-11-22T19:00Z", /has no seconds/, "2026-11-22T19:00:00Z"],
      ["2026-11-22T19:00:00+0100", /has an offset without a colon/, "2026-11-22T19:00:00+01:00"],
      ["2026-11-22T19:00:00", /has no time zone offset/, "2026-11-22T19:00:00Z"],
      ["2026-11-22", /is a date without a time/, "2026-11-22T00:00:00Z"],
      ["2026-02-30T00:00:00Z", /names a day that does not exist \(2026-02-30\)/, null],
    ];
    for (const [from, problem, corrected] of cases) {
      const t = await text({ timeField: "modified", from });
      assert.match(t, /^ErrorCode: InvalidDateTime\n/, from);
      assert.match(t, problem, from);
      if (corrected) assert.ok(t.includes(`Fix: Use '${corrected}'`), `${from}: ${t}`);
    }

    // Empty answers say why they may be empty.
    assert.match(
      await text({ timeField: "modified", path: "docs", glob: "*.md" }),
      /^Found 0 files .*with path 'docs', try glob 'docs\/\*\.md' or '\*\*\/\*\.md'/,
    );
    assert.match(
      await text({ timeField: "modified", glob: "/docs/*.md" }),
      /The glob '\/docs\/\*\.md' starts with '\/'.*try 'docs\/\*\.md'/,
    );
    assert.match(
      await text({ timeField: "modified", includeFiles: false }),
      /set includeDirectories to true/,
    );

    // An exclude written the gitignore way is refused, with the way that works.
    const slash = await text({ timeField: "modified", exclude: ["node_modules/"] });
    assert.match(slash, /^ErrorCode: InvalidArgument\nMessage: 'exclude\[0\]' ends with '\/'/);
    assert.match(
      slash,
      /Fix: Write 'node_modules' \(a name with no '\/' is matched at any depth\)/,
    );

    // A refused root names the tool that lists the roots.
    assert.match(await text({ timeField: "modified", root: "/nope" }), /fs\.list_roots/);
  },
});
