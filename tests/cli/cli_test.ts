/**
 * The command line, run as a person would: the real process, real trees.
 */
import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { connect, SERVER_ARGS } from "../helpers/server.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";

async function cli(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...SERVER_ARGS, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

Deno.test("cli --help and --version", async () => {
  const help = await cli("--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^file-time-search: find files by modified or created time\./);
  assert.match(help.stdout, /file-time-search search <root> \[options\]/);
  const version = await cli("--version");
  assert.equal(version.code, 0);
  assert.equal(version.stdout, `file-time-search ${denoJson.version}\n`);
});

Deno.test("cli search prints a table, newest first", async () => {
  await using tree = await makeTree({
    "docs/a.md": { mtime: T0 + DAY, content: "hello" },
    "b.txt": { mtime: T0 },
  });
  const { code, stdout } = await cli("search", tree.root, "--dirs", "--sort", "path_asc");
  assert.equal(code, 0);
  const lines = stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^PATH\s+KIND\s+SIZE\s+MODIFIED \(UTC\)\s+CREATED \(UTC\)\s+AGE$/);
  assert.match(lines[1]!, /^b\.txt\s+file\s+5 B\s+2025-06-01 00:00\s+\S+ \S+\s+\d+(y|mo|d)$/);
  assert.match(lines[2]!, /^docs\s+dir\s+-\s/);
  assert.match(lines[3]!, /^docs\/a\.md\s+file\s+5 B\s+2025-06-02 00:00\s/);
  assert.equal(lines[4], "Found 3 entries (sorted by path).");
  assert.ok(!stdout.includes(tree.root), "paths are root-relative");
});

Deno.test({
  name: "cli search --json prints the tool's structuredContent",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using tree = await makeTree({ "a.md": { mtime: T0 }, "x/b.md": { mtime: T0 + DAY } });
    const args = ["--glob", "**/*.md", "--limit", "1"];
    const { code, stdout } = await cli("search", tree.root, "--json", ...args);
    assert.equal(code, 0);
    const fromCli = JSON.parse(stdout);
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    const result = await conn.search({ timeField: "modified", glob: "**/*.md", limit: 1 });
    const fromTool = result.structuredContent as Record<string, unknown> & {
      stats: Record<string, unknown>;
    };
    for (const out of [fromCli, fromTool]) out.stats.elapsedMs = 0;
    assert.deepEqual(fromCli, fromTool);
    assert.equal(typeof fromCli.nextCursor, "string");
  },
});

Deno.test("cli reports the tool's error codes and exits non-zero", async () => {
  await using tree = await makeTree({ "a.md": { mtime: T0 } });
  const bad = await cli("search", tree.root, "--sort", "newest");
  assert.equal(bad.code, 1);
  assert.equal(bad.stdout, "");
  assert.deepEqual(bad.stderr.trimEnd().split("\n"), [
    "ErrorCode: InvalidEnum",
    "Message: 'sort' must be one of 'time_desc', 'time_asc', 'path_asc'.",
    "Fix: Set 'sort' to one of: time_desc, time_asc, path_asc.",
  ]);
  const range = await cli(
    "search",
    tree.root,
    "--from",
    "2025-12-16T00:00:00Z",
    "--to",
    "2025-12-15T00:00:00Z",
  );
  assert.equal(range.code, 1);
  assert.match(range.stderr, /^ErrorCode: InvalidRange\n/);
  const limit = await cli("search", tree.root, "--limit", "lots");
  assert.equal(limit.code, 1);
  assert.match(
    limit.stderr,
    /^ErrorCode: InvalidArgument\nMessage: 'limit' must be of type number\./,
  );
  const unknown = await cli("search", tree.root, "--colour", "red");
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /^ErrorCode: InvalidArgument\nMessage: Unknown option '--colour'\.\nFix: /,
  );
  const noRoot = await cli("search", tree.abs("missing"));
  assert.equal(noRoot.code, 2);
  assert.match(noRoot.stderr, /^file-time-search: root .* does not exist\.\n$/);
});
