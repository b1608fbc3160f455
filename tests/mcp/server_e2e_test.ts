/**
 * End to end: the server spawned over stdio, driven by the SDK Client.
 */
import assert from "node:assert/strict";
import { encodeCursor } from "../../src/query/calls/mod.ts";
import {
  connect,
  type Connection,
  NOT_SHARED,
  rawSession,
  sharingAside,
  textOf,
} from "../helpers/server.ts";
import { DAY, makeTree, T0, type TempTree } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

/** These tests are about the walk: the live index is off (its own tests are in tests/index/). */
const WALK = { INDEX: "off" };

async function fixture(): Promise<TempTree> {
  const outside = await makeTree({ "secret.txt": { mtime: T0 } }, "fts-outside-");
  const tree = await makeTree({
    "a.md": { mtime: T0 + 1 * DAY },
    "b.txt": { mtime: T0 + 2 * DAY },
    "docs/c.md": { mtime: T0 + 3 * DAY },
    "docs/deep/d.md": { mtime: T0 + 4 * DAY },
    "escape": { kind: "symlink", target: outside.root },
  });
  // `await using` calls the tree's own dispose: both must remove both trees.
  const dispose = async () => {
    await tree.dispose();
    await outside.dispose();
  };
  return { ...tree, dispose, [Symbol.asyncDispose]: dispose };
}

/** Asserts a tool execution error: the 3-line text and its JSON twin. */
function assertToolError(
  result: Awaited<ReturnType<Connection["search"]>>,
  code: string,
): void {
  assert.equal(result.isError, true, `expected ${code}, got success: ${textOf(result)}`);
  assert.equal(result.structuredContent, undefined);
  const lines = textOf(result, 0).split("\n");
  assert.equal(lines[0], `ErrorCode: ${code}`);
  assert.match(lines[1]!, /^Message: \S.*$/);
  assert.match(lines[2]!, /^Fix: \S.*$/);
  const json = JSON.parse(textOf(result, 1));
  assert.deepEqual(json, {
    error: {
      type: code,
      message: lines[1]!.slice("Message: ".length),
      hint: lines[2]!.slice("Fix: ".length),
    },
  });
}

Deno.test({
  name: "server answers every error code with its 3-line text and JSON error",
  ...sanitize,
  async fn(t) {
    await using tree = await fixture();
    await using conn = await connect({ ...WALK, ALLOW_ROOTS: tree.root, MAX_DEPTH: "10" });
    const base = { timeField: "modified" };
    const cases: [string, Record<string, unknown> | unknown, string][] = [
      ["unknown property", { ...base, colour: "red" }, "InvalidArgument"],
      ["missing timeField", {}, "InvalidArgument"],
      ["wrong JSON type", { ...base, limit: "10" }, "InvalidArgument"],
      ["NUL in a string", { ...base, glob: "a\u0000b" }, "InvalidArgument"],
      ["timeField not in enum", { timeField: "accessed" }, "InvalidEnum"],
      ["sort not in enum", { ...base, sort: "newest" }, "InvalidEnum"],
      ["limit 0", { ...base, limit: 0 }, "LimitOutOfRange"],
      ["limit 1001", { ...base, limit: 1001 }, "LimitOutOfRange"],
      ["limit 1.5", { ...base, limit: 1.5 }, "LimitOutOfRange"],
      ["maxDepth -1", { ...base, maxDepth: -1 }, "MaxDepthOutOfRange"],
      ["maxDepth above the cap", { ...base, maxDepth: 11 }, "MaxDepthOutOfRange"],
      ["glob too long", { ...base, glob: "a".repeat(1025) }, "GlobTooLong"],
      ["path too long", { ...base, path: "a".repeat(4097) }, "PathTooLong"],
      ["cursor too long", { ...base, cursor: "a".repeat(16385) }, "CursorTooLong"],
      ["date without time", { ...base, from: "2025-12-15" }, "InvalidDateTime"],
      ["date-time without offset", { ...base, to: "2025-12-15T00:00:00" }, "InvalidDateTime"],
      [
        "from after to",
        { ...base, from: "2025-12-16T00:00:00Z", to: "2025-12-15T00:00:00Z" },
        "InvalidRange",
      ],
      ["root not allowed", { ...base, root: "/definitely/not/a/root" }, "RootNotAllowed"],
      ["root is a subfolder", { ...base, root: tree.abs("docs") }, "RootNotAllowed"],
      ["absolute path", { ...base, path: "/etc" }, "PathNotRelative"],
      ["drive path", { ...base, path: "C:\\Users" }, "PathNotRelative"],
      ["traversal", { ...base, path: "docs/../../x" }, "PathTraversalDetected"],
      ["cursor not base64url", { ...base, cursor: "!!!" }, "CursorInvalid"],
      [
        "cursor version 2",
        { ...base, cursor: b64({ v: 2, s: "time_desc", t: 1, p: "a" }) },
        "CursorVersionMismatch",
      ],
      [
        "cursor for another sort",
        {
          ...base,
          cursor: encodeCursor("path_asc", { key: { time: 1, path: "a" }, boundary: null }, "x"),
        },
        "CursorSortMismatch",
      ],
      [
        "cursor for another query",
        {
          ...base,
          cursor: encodeCursor("time_desc", { key: { time: 1, path: "a" }, boundary: null }, "x"),
        },
        "CursorInvalid",
      ],
      ["missing start path", { ...base, path: "nope" }, "PathNotFound"],
      [
        "start path through a link out of the root",
        { ...base, path: "escape/x" },
        "SymlinkEscapeDetected",
      ],
    ];
    for (const [name, args, code] of cases) {
      await t.step(`${name} -> ${code}`, async () => {
        assertToolError(await conn.search(args), code);
      });
    }
    await t.step(
      "no error text holds the root's absolute path (RootNotAllowed lists them)",
      async () => {
        for (const [, args, code] of cases) {
          const result = await conn.search(args);
          // Contract §23a: RootNotAllowed lists the allowed roots, the client's own configuration.
          if (code === "RootNotAllowed") continue;
          for (const item of result.content) {
            assert.ok(item.type === "text" && !item.text.includes(tree.root), item.type);
          }
        }
      },
    );
  },
});

function b64(value: unknown): string {
  return btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

Deno.test({
  name: "server reports scan limits as errors with ON_LIMIT=error",
  ...sanitize,
  async fn() {
    await using tree = await fixture();
    {
      await using conn = await connect({
        ...WALK,
        ALLOW_ROOTS: tree.root,
        ON_LIMIT: "error",
        MAX_FILES_SCANNED: "1",
      });
      const result = await conn.search({ timeField: "modified" });
      assertToolError(result, "ScanLimitExceeded");
      assert.match(
        textOf(result),
        /\nScanned: \d+ files, \d+ directories\.\nServer time: [^\n]+\.$/,
      );
    }
    {
      // A clock that moves 10 ms per reading makes the 5 ms time-out fire after one entry.
      await using conn = await connect({
        ...WALK,
        ALLOW_ROOTS: tree.root,
        ON_LIMIT: "error",
        SCAN_TIMEOUT_MS: "5",
      }, { clockStepMs: 10 });
      assertToolError(await conn.search({ timeField: "modified" }), "TimeoutExceeded");
    }
  },
});

Deno.test({
  name: "server maps unreadable and failing start paths to AccessDenied and IOFailure",
  ...sanitize,
  async fn() {
    await using tree = await fixture();
    await using conn = await connect({ ...WALK, ALLOW_ROOTS: tree.root }, {
      faults: [
        { path: tree.abs("docs"), error: "PermissionDenied" },
        { path: tree.abs("b.txt"), error: "Busy" },
      ],
    });
    assertToolError(await conn.search({ timeField: "modified", path: "docs" }), "AccessDenied");
    assertToolError(await conn.search({ timeField: "modified", path: "b.txt" }), "IOFailure");
    // Below the start, the same faults only skip entries.
    const whole = await conn.search({ timeField: "modified" });
    assert.equal(whole.isError, false);
    const stats = (whole.structuredContent as { stats: { skipped: number } }).stats;
    assert.ok(stats.skipped >= 2, `skipped ${stats.skipped}`);
  },
});

Deno.test({
  name: "server answers protocol errors as JSON-RPC errors",
  ...sanitize,
  async fn() {
    await using tree = await fixture();
    await using conn = await connect({ ...WALK, ALLOW_ROOTS: tree.root });
    await assert.rejects(
      conn.client.callTool({ name: "fs.no_such_tool", arguments: {} }),
      (err: { code?: number }) => err.code === -32602,
    );
    await assert.rejects(
      conn.client.request(
        { method: "tools/call", params: { name: "fs.search_by_time", arguments: 42 } } as never,
        (await import("@modelcontextprotocol/sdk/types.js")).CallToolResultSchema,
      ),
      (err: { code?: number }) => err.code === -32602,
    );
  },
});

Deno.test({
  name: "server publishes the tool with schemas and annotations",
  ...sanitize,
  async fn() {
    await using tree = await fixture();
    await using conn = await connect({ ...WALK, ALLOW_ROOTS: tree.root });
    const { tools } = await conn.client.listTools();
    assert.deepEqual(tools.map((t: { name: string }) => t.name), [
      "fs.search_by_time",
      "fs.changes_since",
      "fs.list_roots",
    ]);
    const tool = tools[0]!;
    assert.equal(tool.name, "fs.search_by_time");
    assert.deepEqual(tool.inputSchema.required, ["timeField"]);
    assert.ok(tool.outputSchema);
    // The contract's annotations (§3): the title is the tool's own `title`, said once.
    assert.equal(tool.title, "Find recent files by modified or created time");
    assert.deepEqual(tool.annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.deepEqual(conn.client.getServerCapabilities(), {
      tools: { listChanged: false },
      logging: {},
    });
    assert.equal(conn.client.getServerVersion()?.name, "file-time-search");
  },
});

Deno.test({
  name: "server returns a summary, JSON text and structuredContent on success",
  ...sanitize,
  async fn() {
    await using tree = await fixture();
    await using conn = await connect({ ...WALK, ALLOW_ROOTS: tree.root, TZ: "UTC" });
    const result = await conn.search({
      timeField: "modified",
      glob: "**/*.md",
      from: "2025-06-02T00:00:00Z",
      to: "2025-06-05T09:00:00+09:00",
    });
    assert.equal(result.isError, false);
    assert.match(
      textOf(result, 0),
      /^Found 2 files \(newest first\)\. Window: from 2025-06-02 00:00 to 2025-06-05 00:00 local time\. Server time: \d{4}-\d\d-\d\dT[\d:.]+Z \(\d{4}-\d\d-\d\d \d\d:\d\d in \S+, UTC[+-]\d\d:\d\d\)\.$/,
    );
    assert.deepEqual(JSON.parse(textOf(result, 1)), result.structuredContent);
    const out = result.structuredContent as {
      range: unknown;
      matches: { path: string; modifiedAt: string; sizeBytes: number }[];
      nextCursor: unknown;
      stats: { returned: number };
    };
    assert.deepEqual(out.range, {
      from: "2025-06-02T00:00:00.000Z",
      to: "2025-06-05T00:00:00.000Z",
    });
    // a.md is exactly at 'from' (in); docs/deep/d.md exactly at 'to' (out).
    assert.deepEqual(out.matches.map((m) => m.path), ["docs/c.md", "a.md"]);
    assert.deepEqual(out.matches.map((m) => m.modifiedAt), [
      "2025-06-04T00:00:00.000Z",
      "2025-06-02T00:00:00.000Z",
    ]);
    assert.equal(out.matches[1]!.sizeBytes, "a.md".length);
    assert.equal(out.nextCursor, null);
    assert.equal(out.stats.returned, 2);
  },
});

Deno.test({
  name: "server negotiates every protocol version of contract §3",
  ...sanitize,
  async fn() {
    await using tree = await fixture();
    for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
      const lines = [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: version,
            capabilities: {},
            clientInfo: { name: "raw", version: "0" },
          },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: {
            name: "fs.search_by_time",
            arguments: { timeField: "modified", glob: "*.md" },
          },
        },
      ];
      const { stdout } = await rawSession(tree.root, lines.map((l) => JSON.stringify(l) + "\n"));
      const replies = stdout.trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(replies[0].result.protocolVersion, version);
      assert.equal(replies[1].result.isError, false);
      assert.deepEqual(
        replies[1].result.structuredContent.matches.map((m: { path: string }) => m.path),
        [
          "a.md",
        ],
      );
    }
  },
});

Deno.test({
  name: "server lists the roots and the default with fs.list_roots",
  ...sanitize,
  async fn() {
    await using a = await makeTree({ "x.txt": {} });
    await using b = await makeTree({ "y.txt": {} });
    await using conn = await connect({
      // The index started on first use: fs.list_roots shows it.
      ALLOW_ROOTS: `${a.root};${b.root}`,
      DEFAULT_ROOT: b.root,
      INDEX: "lazy",
    });
    const result = await conn.client.callTool({ name: "fs.list_roots", arguments: {} });
    assert.equal(result.isError, false);
    // Before any search, neither root has a live index yet (contract §18).
    const notYet = {
      state: "off",
      entries: 0,
      // Windows indexes no root (docs/index.md) and says why.
      reason: Deno.build.os === "windows"
        ? "on Windows the watch gives no order across folders, so no indexed answer could be proved up to date"
        : "not used yet",
      answers: { index: 0, walk: 0 },
      shared: NOT_SHARED,
    };
    const { serverTime, timeZone, summary, memory, ...listed } = result
      .structuredContent as {
        serverTime: string;
        timeZone: { name: string; offset: string };
        summary: string;
        memory: { rssBytes: number };
      };
    // The line people read: the summary, then the time (each fact once in the fields).
    const line = (result.content as { text: string }[])[0]!.text;
    assert.ok(line.startsWith(`${summary} Server time: ${serverTime} (`), line);
    assert.match(
      line,
      new RegExp(` in ${timeZone.name}, UTC${timeZone.offset.replace("+", "\\+")}\\)\\.$`),
    );
    assert.ok(memory.rssBytes > 0);
    // Each root's clock (contract §24): the run, the root; no journal position yet.
    const roots = (listed as { roots: { clock?: string; index: { shared?: unknown } }[] }).roots;
    for (const r of roots) r.index = sharingAside(r.index);
    const [clockA, clockB] = roots.map((r) => r.clock);
    assert.match(clockA!, /^fts2\.[0-9a-f]{12}\.[0-9a-f]{8}\.-\.-\.[0-9a-z]+$/);
    assert.match(clockB!, /^fts2\.[0-9a-f]{12}\.[0-9a-f]{8}\.-\.-\.[0-9a-z]+$/);
    assert.notEqual(clockA!.split(".")[2], clockB!.split(".")[2], "each clock names its root");
    for (const r of roots) delete r.clock;
    assert.deepEqual(listed, {
      roots: [
        { path: a.root, isDefault: false, index: notYet },
        { path: b.root, isDefault: true, index: notYet },
      ],
    });
    // The server's time and zone, for 'today' and 'within' (contract §21).
    assert.ok(Math.abs(Date.parse(serverTime) - Date.now()) < 60_000, serverTime);
    assert.equal(timeZone.name, Intl.DateTimeFormat().resolvedOptions().timeZone);
    assert.match(timeZone.offset, /^[+-]\d\d:\d\d$/);
    // What it lists is what fs.search_by_time accepts as root.
    const found = await conn.search({ timeField: "modified", root: a.root });
    assert.deepEqual(
      (found.structuredContent as { matches: { path: string }[] }).matches.map((m) => m.path),
      ["x.txt"],
    );
  },
});

Deno.test({
  name: "server sends logs to the client only after logging/setLevel",
  ...sanitize,
  async fn() {
    await using tree = await fixture();
    await using conn = await connect({ ...WALK, ALLOW_ROOTS: tree.root });
    const { LoggingMessageNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const messages: { level: string; data: unknown }[] = [];
    conn.client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n: { params: { level: string; data: unknown } }) => {
        messages.push(n.params);
      },
    );
    await conn.search({ timeField: "modified" });
    assert.equal(messages.length, 0, "nothing before the client asks");
    await conn.client.setLoggingLevel("info");
    await conn.search({ timeField: "modified", glob: "**/*.md" });
    await conn.search({ timeField: "nope" });
    await conn.client.ping(); // notifications sent before the ping's answer have arrived
    const texts = messages.map((m) => `${m.level}: ${m.data}`);
    assert.match(texts[0]!, /^info: file-time-search \d+\.\d+\.\d+: 1 root\(s\); limits: /);
    // One line a call (contract §23a): the tool, its root, the count, the time, who answered.
    assert.equal(
      texts[1]!.replace(/\d+ ms/, "N ms"),
      `info: search ${tree.root}: 3 matches, N ms, by a walk (INDEX=off).`,
    );
    assert.equal(texts[2], "info: search refused: InvalidEnum ('timeField').");
    await conn.client.setLoggingLevel("error");
    await conn.search({ timeField: "modified" });
    await conn.client.ping();
    assert.equal(messages.length, 3, "info lines are below the error level");
  },
});
