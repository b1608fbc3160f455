/**
 * `file-time-search changes`, run as a person would (contract §24): a table of what was
 * modified or created since then, a fresh instance that says it cannot name removals, the
 * clock to pass next time (and it works as printed), JSON, and a search's flags refused.
 */
import assert from "node:assert/strict";
import { SERVER_ARGS } from "../helpers/server.ts";
import { runDeno } from "../helpers/spawn.ts";
import { makeTree, T0 } from "../helpers/tree.ts";

function cli(...args: string[]) {
  return runDeno([...SERVER_ARGS, ...args], { env: { NO_COLOR: "1" } });
}

Deno.test("cli changes: what changed since, the clock for next time, as printed", async () => {
  await using tree = await makeTree({ "old.md": { mtime: T0 }, "docs/new.md": {} });
  const since = new Date(Date.now() - 60_000).toISOString();
  const first = await cli("changes", tree.root, "--since", since, "--utc");
  assert.equal(first.code, 0, first.stderr);
  const lines = first.stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^CHANGE\s+KIND\s+MODIFIED \(UTC\)\s+PATH$/);
  // Made a moment ago, both: created (their created times are since then).
  assert.match(first.stdout, /\ncreated\s+file\s+\S+ \S+\s+docs\/new\.md\n/);
  assert.match(first.stdout, /Removals and renames cannot be known \(one run of the command line/);
  const next = /^Next time: (.*)$/m.exec(first.stdout)?.[1];
  assert.ok(next, first.stdout);
  const clock = /--since (fts2\.\S+)$/.exec(next)?.[1];
  assert.ok(clock, next);
  // The clock works as printed: nothing made since it.
  const again = await cli("changes", tree.root, "--since", clock);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^Found 0 files modified or created since /m);
  // JSON: the tool's structured result.
  const json = await cli("changes", tree.root, "--since", since, "--json", "-g", "**/*.md");
  const out = JSON.parse(json.stdout);
  assert.equal(out.freshInstance, true);
  assert.deepEqual(out.changes.map((c: { path: string }) => c.path), ["docs/new.md", "old.md"]);
  // A search's flags are not a changes call's.
  const sorted = await cli("changes", tree.root, "--since", "1h", "--sort", "path_asc");
  assert.equal(sorted.code, 2);
  assert.match(sorted.stderr, /'changes' does not take --sort\./);
  const none = await cli("changes", tree.root);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /Give --since/);
  // Its own help, with examples to paste (refused before: "'changes' does not take --help").
  const help = await cli("changes", "--help");
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^file-time-search changes: /);
  assert.match(help.stdout, /--since <clock\|time\|duration>/);
  assert.match(help.stdout, /--expand/);
  // A changes flag is not a search's.
  const expand = await cli("search", tree.root, "--expand");
  assert.equal(expand.code, 2);
  assert.match(expand.stderr, /'search' does not take --expand/);
});
