/**
 * Excludes and ignore files end to end (contract §17): the `exclude` and
 * `respectIgnoreFiles` inputs, the server's EXCLUDE and RESPECT_IGNORE_FILES, cursors
 * bound to them, and exact paging.
 */
import assert from "node:assert/strict";
import { connect, textOf } from "../helpers/server.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

interface Output {
  matches: { path: string }[];
  nextCursor: string | null;
  stats: { excluded?: number; scannedDirectories: number };
}
const out = (r: { structuredContent?: unknown }) => r.structuredContent as Output;
const paths = (r: { structuredContent?: unknown }) => out(r).matches.map((m) => m.path);

function repo() {
  const spec: Record<string, { mtime?: number; content?: string }> = {
    ".gitignore": { mtime: T0 - DAY, content: "dist/\n*.log\nnode_modules/\n" },
    ".git/objects/ab/cdef": { mtime: T0 + 9 * DAY },
    "dist/bundle.js": { mtime: T0 + 9 * DAY },
    "debug.log": { mtime: T0 + 9 * DAY },
  };
  for (let i = 0; i < 12; i++) {
    spec[`src/m${i}.ts`] = { mtime: T0 + i * 3_600_000 };
    spec[`node_modules/p${i}/index.js`] = { mtime: T0 + 8 * DAY };
  }
  return makeTree(spec);
}

Deno.test({
  name: "exclude prunes and filters, with stats.excluded, and pages to the end exactly",
  ...sanitize,
  async fn() {
    await using tree = await repo();
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    const args = { timeField: "modified", exclude: ["node_modules", ".git", "**/*.log"] };
    const whole = await conn.search(args);
    assert.deepEqual(paths(whole).slice(0, 2), ["dist/bundle.js", "src/m11.ts"]);
    assert.ok(paths(whole).every((p) => !p.startsWith("node_modules") && !p.endsWith(".log")));
    assert.equal(out(whole).stats.excluded, 3, "node_modules, .git and debug.log, once each");
    for (const sort of ["time_desc", "time_asc", "path_asc"]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await conn.search({ ...args, sort, limit: 4, ...(cursor ? { cursor } : {}) });
        seen.push(...paths(page));
        cursor = out(page).nextCursor;
      } while (cursor !== null);
      const all = await conn.search({ ...args, sort });
      assert.deepEqual(seen, paths(all), sort);
    }
  },
});

Deno.test({
  name: "respectIgnoreFiles answers 'what changed' without dependencies and build output",
  ...sanitize,
  async fn() {
    await using tree = await repo();
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    const noisy = await conn.search({ timeField: "modified", limit: 3 });
    assert.deepEqual(paths(noisy).length, 3);
    assert.ok(paths(noisy).some((p) => p.startsWith(".git/") || p.startsWith("dist/")));
    const clean = await conn.search({ timeField: "modified", limit: 3, respectIgnoreFiles: true });
    assert.deepEqual(paths(clean), ["src/m11.ts", "src/m10.ts", "src/m9.ts"]);
    assert.equal(out(clean).stats.excluded, 4, ".git, dist, debug.log and node_modules");
    // exclude adds to the ignore files.
    const both = await conn.search({
      timeField: "modified",
      respectIgnoreFiles: true,
      exclude: ["src/m1*"],
      limit: 3,
    });
    assert.deepEqual(paths(both), ["src/m9.ts", "src/m8.ts", "src/m7.ts"]);
  },
});

Deno.test({
  name: "exclude: bad shapes are InvalidArgument or GlobTooLong",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    const cases: [unknown, string, RegExp][] = [
      [
        "node_modules",
        "InvalidArgument",
        /'exclude' must be an array of strings, like \["node_modules"\], not the string "node_modules"/,
      ],
      [[1], "InvalidArgument", /'exclude\.0' must be a string, like "1", not the number 1/],
      [Array(65).fill("x"), "InvalidArgument", /holds more than 64 globs/],
      [["ok", "x".repeat(1025)], "GlobTooLong", /'exclude\[1\]' is 1025 characters long/],
      [["{a,b"], "InvalidArgument", /'exclude\[0\]' has a '\{' that is never closed/],
    ];
    for (const [exclude, code, message] of cases) {
      const result = await conn.search({ timeField: "modified", exclude });
      assert.equal(result.isError, true, JSON.stringify(exclude).slice(0, 40));
      assert.match(textOf(result), new RegExp(`^ErrorCode: ${code}\\n`));
      assert.match(textOf(result), message);
    }
    const flag = await conn.search({ timeField: "modified", respectIgnoreFiles: "yes" });
    assert.match(textOf(flag), /^ErrorCode: InvalidArgument\nMessage: 'respectIgnoreFiles' must/);
  },
});

Deno.test({
  name: "a cursor from another exclude or respectIgnoreFiles is CursorInvalid",
  ...sanitize,
  async fn() {
    await using tree = await repo();
    await using conn = await connect({ ALLOW_ROOTS: tree.root });
    const first = await conn.search({ timeField: "modified", limit: 2, exclude: ["dist"] });
    const cursor = out(first).nextCursor!;
    for (
      const other of [{ exclude: ["dist", "x"] }, {}, {
        exclude: ["dist"],
        respectIgnoreFiles: true,
      }]
    ) {
      const result = await conn.search({ timeField: "modified", limit: 2, cursor, ...other });
      assert.match(
        textOf(result),
        /^ErrorCode: CursorInvalid\nMessage: The cursor belongs to a different query\./,
      );
    }
    const same = await conn.search({ timeField: "modified", limit: 2, cursor, exclude: ["dist"] });
    assert.equal(same.isError, false);
  },
});

Deno.test({
  name: "EXCLUDE and RESPECT_IGNORE_FILES set the server's policy and default",
  ...sanitize,
  async fn() {
    await using tree = await repo();
    await using conn = await connect({
      ALLOW_ROOTS: tree.root,
      EXCLUDE: "node_modules; **/*.log",
      RESPECT_IGNORE_FILES: "true",
    });
    const result = await conn.search({ timeField: "modified", exclude: [] });
    assert.ok(
      paths(result).every((p) => p.startsWith("src/") || p === ".gitignore"),
      paths(result).join(),
    );
    // A call cannot undo the server's EXCLUDE, but may turn ignore files off.
    const off = await conn.search({ timeField: "modified", respectIgnoreFiles: false });
    assert.ok(paths(off).includes("dist/bundle.js"));
    assert.ok(!paths(off).some((p) => p.startsWith("node_modules") || p.endsWith(".log")));
  },
});
