/**
 * The command line, run as a person would: the real process, real trees.
 */
import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { connect, SERVER_ARGS } from "../helpers/server.ts";
import { runDeno } from "../helpers/spawn.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

function cli(...args: string[]) {
  return runDeno([...SERVER_ARGS, ...args], { env: { NO_COLOR: "1" } });
}

Deno.test("cli: the table's times are in the zone it names, or UTC with --utc", async () => {
  await using tree = await makeTree({ "a.md": { mtime: T0 } });
  const seoul = (...flags: string[]) =>
    runDeno([...SERVER_ARGS, "search", tree.root, ...flags], {
      env: { NO_COLOR: "1", TZ: "Asia/Seoul" },
    });
  const local = (await seoul()).stdout.split("\n");
  assert.match(local[0]!, /MODIFIED \(Asia\/Seoul\)\s+CREATED \(Asia\/Seoul\)/);
  assert.match(local[1]!, /^a\.md\s+file\s+\S+ B\s+2025-06-01 09:00\s/);
  const utc = await seoul("--utc");
  assert.match(utc.stdout, /MODIFIED \(UTC\)/);
  assert.match(utc.stdout, /\na\.md\s+file\s+\S+ B\s+2025-06-01 00:00\s/);
  // The next page's command keeps --utc.
  await using two = await makeTree({ "a.md": { mtime: T0 }, "b.md": { mtime: T0 + DAY } });
  const paged = await runDeno([...SERVER_ARGS, "search", two.root, "-n", "1", "--utc"], {
    env: { NO_COLOR: "1" },
  });
  assert.match(paged.stdout, /Next page: .* --utc --cursor /);
});

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
  const { code, stdout } = await cli("search", tree.root, "--dirs", "--sort", "path_asc", "--utc");
  assert.equal(code, 0);
  const lines = stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^PATH\s+KIND\s+SIZE\s+MODIFIED \(UTC\)\s+CREATED \(UTC\)\s+AGE$/);
  assert.match(lines[1]!, /^b\.txt\s+file\s+5 B\s+2025-06-01 00:00\s+\S+ \S+\s+\d+(y|mo|d)$/);
  assert.match(lines[2]!, /^docs\s+dir\s+-\s/);
  assert.match(lines[3]!, /^docs\/a\.md\s+file\s+5 B\s+2025-06-02 00:00\s/);
  assert.equal(lines[4], "Found 3 entries (by path).");
  assert.ok(!stdout.includes(tree.root), "paths are root-relative");
});

Deno.test({
  name: "cli search --json prints the tool's structuredContent",
  ...sanitize,
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
    // Both cursors name when their paging sequence began (c): the rest is the same.
    const withoutChain = (cursor: string) => {
      const json = JSON.parse(atob(cursor.replaceAll("-", "+").replaceAll("_", "/")));
      delete json.c;
      return json;
    };
    // And each says the server's time when it answered.
    for (const out of [fromCli, fromTool]) {
      out.stats.elapsedMs = 0;
      out.nextCursor = withoutChain(out.nextCursor as string);
      out.summary = (out.summary as string).replace(/ Server time: .*$/, "");
      delete out.serverTime;
      delete out.localTime;
    }
    // The tool's answer names its root's clock in this server run (contract §24); a CLI
    // run has no journal to name.
    assert.match(fromTool.clock as string, /^fts2\./);
    delete fromTool.clock;
    // The server's first call walked while its index started, and says so (contract §28a);
    // the command line has no index.
    const notes = (fromTool.notes ?? []) as { code: string }[];
    const rest = notes.filter((n) => n.code !== "IndexBuilding");
    if (rest.length > 0) fromTool.notes = rest;
    else delete fromTool.notes;
    assert.deepEqual(fromCli, fromTool);
    assert.equal(typeof fromCli.nextCursor, "object");
  },
});

Deno.test("cli reports the tool's error codes and exits non-zero", async () => {
  await using tree = await makeTree({ "a.md": { mtime: T0 } });
  const bad = await cli("search", tree.root, "--sort", "newest");
  assert.equal(bad.code, 1);
  assert.equal(bad.stdout, "");
  assert.deepEqual(bad.stderr.trimEnd().split("\n"), [
    "ErrorCode: InvalidEnum",
    "Message: --sort must be one of 'time_desc', 'time_asc', 'path_asc'.",
    "Fix: Set --sort to one of: time_desc, time_asc, path_asc.",
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
  // A flag value of the wrong kind is a usage error about the flag (exit 2).
  const limit = await cli("search", tree.root, "--limit", "lots");
  assert.equal(limit.code, 2);
  assert.match(
    limit.stderr,
    /^ErrorCode: InvalidArgument\nMessage: --limit needs a whole number, not 'lots'\./,
  );
  const unknown = await cli("search", tree.root, "--colour", "red");
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /^ErrorCode: InvalidArgument\nMessage: Unknown option '--colour'\.\nFix: /,
  );
  // An unknown option gets the closest flag, as the tool's unknown names do (contract §23).
  for (const [typo, meant] of [["--time_field", "--time-field"], ["--withn=1d", "--within"]]) {
    const typed = await cli("search", tree.root, typo!, "modified");
    assert.equal(typed.code, 2);
    assert.match(typed.stderr, new RegExp(`did you mean '${meant}'\\?`), typo);
  }
  // A window named in words gets the argument that fits, in flags.
  const words = await cli("search", tree.root, "--within", "last 3 days");
  assert.match(words.stderr, /Fix: Write it as a number and a unit: set --within to "3d"\./);
  const noRoot = await cli("search", tree.abs("missing"));
  assert.equal(noRoot.code, 2);
  assert.match(noRoot.stderr, /^file-time-search: root .* does not exist\.\n$/);
});

Deno.test("cli prints the whole command for the next page, and it works as printed", async () => {
  const spec: Record<string, { mtime: number }> = {};
  for (let i = 0; i < 5; i++) spec[`d/f${i}.md`] = { mtime: T0 + i * DAY };
  await using tree = await makeTree(spec);
  const seen: string[] = [];
  let args = ["search", tree.root, "--glob", "**/*.md", "-n", "2", "--sort", "time_asc"];
  for (let page = 0; page < 5; page++) {
    const { code, stdout } = await cli(...args);
    assert.equal(code, 0, stdout);
    seen.push(...[...stdout.matchAll(/^(d\/f\d\.md)\s/gm)].map((m) => m[1]!));
    const next = stdout.match(/^Next page: (.*)$/m)?.[1];
    if (next === undefined) break;
    const prefix = "npx -y deno@" + Deno.version.deno + " task -q cli ";
    assert.ok(next.startsWith(prefix), next);
    // The rest is the same search, every option repeated, with the new cursor.
    args = [...next.slice(prefix.length).matchAll(/'((?:[^']|'"'"')*)'|(\S+)/g)].map((m) =>
      m[1] !== undefined ? m[1].replaceAll(`'"'"'`, "'") : m[2]!
    );
    assert.deepEqual(args.slice(0, 8), [
      "search",
      tree.root,
      "--glob",
      "**/*.md",
      "-n",
      "2",
      "--sort",
      "time_asc",
    ]);
  }
  assert.deepEqual(seen, ["d/f0.md", "d/f1.md", "d/f2.md", "d/f3.md", "d/f4.md"]);
});

Deno.test("cli: a number flag that is not a whole number is a usage error naming the flag", async () => {
  await using tree = await makeTree({ "a.txt": { mtime: T0 } });
  for (const [flag, value] of [["--limit", "abc"], ["--max-depth", "1.5"], ["-n", "ten"]]) {
    const { code, stderr } = await cli("search", tree.root, flag!, value!);
    assert.equal(code, 2, stderr);
    assert.match(
      stderr,
      new RegExp(
        `^ErrorCode: InvalidArgument\\nMessage: ${
          flag === "-n" ? "--limit" : flag
        } needs a whole number, not '${value}'\\.`,
      ),
      stderr,
    );
    assert.doesNotMatch(stderr, /JSON|of type/);
  }
});

Deno.test("cli: a negative or out-of-range number gets the tool's own range error", async () => {
  await using tree = await makeTree({ "a.txt": { mtime: T0 } });
  const depth = await cli("search", tree.root, "--max-depth", "-1");
  assert.equal(depth.code, 1, depth.stderr);
  assert.match(depth.stderr, /^ErrorCode: MaxDepthOutOfRange\nMessage: [^\n]+\nFix: [^\n]+\n$/);
  const limit = await cli("search", tree.root, "--limit", "-5");
  assert.equal(limit.code, 1, limit.stderr);
  assert.match(limit.stderr, /^ErrorCode: LimitOutOfRange\n/);
});

Deno.test("cli --exclude and --respect-ignore-files leave entries out", async () => {
  await using tree = await makeTree({
    ".gitignore": { mtime: T0, content: "build/\n" },
    "src/a.ts": { mtime: T0 + DAY },
    "build/out.js": { mtime: T0 + 2 * DAY },
    "node_modules/x/i.js": { mtime: T0 + 3 * DAY },
  });
  const files = (stdout: string) => [...stdout.matchAll(/^(\S+)\s+file\s/gm)].map((m) => m[1]);
  const excluded = await cli("search", tree.root, "-x", "node_modules", "--exclude", "build");
  assert.equal(excluded.code, 0, excluded.stderr);
  assert.deepEqual(files(excluded.stdout), ["src/a.ts", ".gitignore"]);
  const ignoring = await cli("search", tree.root, "--respect-ignore-files", "-x", "node_modules");
  assert.deepEqual(files(ignoring.stdout), ["src/a.ts", ".gitignore"]);
  const json = await cli("search", tree.root, "--respect-ignore-files", "--json");
  assert.equal(JSON.parse(json.stdout).stats.excluded, 1);
});
