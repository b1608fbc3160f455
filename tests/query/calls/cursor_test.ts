import assert from "node:assert/strict";
import { throwsCode } from "../../helpers/throws.ts";
import { loadConfig } from "../../../src/config.ts";
import { parseArguments } from "../../../src/query/arguments/mod.ts";
import fc from "npm:fast-check@4.10.2";
import { ToolError } from "../../../src/errors.ts";
import { decodeCursor, encodeCursor, queryHash as hashOf } from "../../../src/query/calls/mod.ts";
import { type Position, type SearchRequest, type Sort, SORTS } from "../../../src/query/request.ts";

const Q = "query-hash-1";

/** base64url without padding of the UTF-8 JSON of `value`, built independently of cursor.ts. */
function craft(value: unknown): string {
  return rawBytes(new TextEncoder().encode(JSON.stringify(value)));
}

function rawBytes(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function invalid(text: string, sort: Sort = "time_desc"): ToolError {
  return throwsCode(() => decodeCursor(text, sort, Q), "CursorInvalid");
}

// ---- round trips ----

for (const s of SORTS) {
  Deno.test(`encodeCursor() and decodeCursor() round-trip a key only (${s})`, () => {
    const cursor: Position = { key: { time: 1765756800000, path: "docs/a.md" }, boundary: null };
    assert.deepEqual(decodeCursor(encodeCursor(s, cursor, Q), s, Q), cursor);
  });

  Deno.test(`encodeCursor() and decodeCursor() round-trip a boundary only (${s})`, () => {
    const cursor: Position = { key: null, boundary: "docs/b" };
    assert.deepEqual(decodeCursor(encodeCursor(s, cursor, Q), s, Q), cursor);
  });

  Deno.test(`encodeCursor() and decodeCursor() round-trip a key and a boundary (${s})`, () => {
    const cursor: Position = { key: { time: -5, path: "日本/ファイル.txt" }, boundary: "z/😀" };
    assert.deepEqual(decodeCursor(encodeCursor(s, cursor, Q), s, Q), cursor);
  });
}

Deno.test("encodeCursor() and decodeCursor() round-trip an unknown time (t null)", () => {
  const cursor: Position = { key: { time: null, path: "x" }, boundary: null };
  assert.deepEqual(decodeCursor(encodeCursor("time_asc", cursor, Q), "time_asc", Q), cursor);
});

Deno.test("encodeCursor() round-trips an empty path and an empty boundary", () => {
  const cursor: Position = { key: { time: 0, path: "" }, boundary: "" };
  assert.deepEqual(decodeCursor(encodeCursor("path_asc", cursor, Q), "path_asc", Q), cursor);
});

Deno.test("encodeCursor() writes base64url without padding of the documented JSON", () => {
  const text = encodeCursor("time_desc", { key: { time: 5, path: "a.md" }, boundary: null }, Q);
  assert.match(text, /^[A-Za-z0-9_-]+$/);
  const json = new TextDecoder().decode(
    Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0)),
  );
  assert.deepEqual(JSON.parse(json), { v: 1, s: "time_desc", t: 5, p: "a.md", q: Q });
});

Deno.test("decodeCursor() reads a cursor built by hand in the documented form", () => {
  const text = craft({ v: 1, s: "time_desc", t: 7, p: "a", w: "b", q: Q });
  assert.deepEqual(decodeCursor(text, "time_desc", Q), {
    key: { time: 7, path: "a" },
    boundary: "b",
  });
});

Deno.test("encodeCursor() and decodeCursor() round-trip arbitrary cursors", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SORTS),
      fc.option(fc.maxSafeInteger(), { nil: null }),
      fc.string(),
      fc.option(fc.string(), { nil: null }),
      fc.string(),
      (s, t, p, w, q) => {
        const cursor: Position = { key: { time: t, path: p }, boundary: w };
        assert.deepEqual(decodeCursor(encodeCursor(s, cursor, q), s, q), cursor);
      },
    ),
  );
});

Deno.test("encodeCursor() and decodeCursor() round-trip any UTF-16 text, lone surrogates too", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SORTS),
      fc.option(fc.integer(), { nil: null }),
      fc.string({ unit: "binary" }),
      fc.option(fc.string({ unit: "binary" }), { nil: null }),
      (s, t, p, w) => {
        const cursor: Position = { key: { time: t, path: p }, boundary: w };
        assert.deepEqual(decodeCursor(encodeCursor(s, cursor, Q), s, Q), cursor);
        const boundaryOnly: Position = { key: null, boundary: w ?? p };
        assert.deepEqual(decodeCursor(encodeCursor(s, boundaryOnly, Q), s, Q), boundaryOnly);
      },
    ),
  );
});

// ---- decoding errors ----

Deno.test("decodeCursor() rejects text that is not base64url", () => {
  invalid("!!!");
  invalid("a==");
  invalid("eyJ2IjoxfQ=="); // padded base64 of {"v":1}
  invalid("ab+/"); // standard base64 alphabet
  invalid("ab cd");
  invalid("");
});

Deno.test("decodeCursor() rejects base64url whose length leaves one character over", () => {
  const good = craft({ v: 1, s: "time_desc", t: 1, p: "a" });
  // Find a length whose remainder mod 4 is 1 by appending characters.
  let bad = good;
  while (bad.length % 4 !== 1) bad += "A";
  invalid(bad);
  invalid("A");
  invalid("AAAAA");
});

Deno.test("decodeCursor() rejects bytes that are not UTF-8", () => {
  const text = rawBytes(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
  assert.match(text, /^[A-Za-z0-9_-]+$/);
  invalid(text);
  invalid(rawBytes(new Uint8Array([0xc3]))); // truncated two-byte sequence
});

Deno.test("decodeCursor() rejects text that is not JSON", () => {
  invalid(rawBytes(new TextEncoder().encode("hello")));
  invalid(rawBytes(new TextEncoder().encode("{v:1}")));
});

Deno.test("decodeCursor() rejects JSON that is not an object", () => {
  invalid(craft([1, "time_desc", 5, "a"]));
  invalid(craft(1));
  invalid(craft("x"));
  invalid(craft(null));
  invalid(craft(true));
});

Deno.test("decodeCursor() rejects a cursor without a version", () => {
  invalid(craft({ s: "time_desc", t: 1, p: "a" }));
});

Deno.test("decodeCursor() rejects a version that is not a number", () => {
  invalid(craft({ v: "1", s: "time_desc", t: 1, p: "a" }));
  invalid(craft({ v: null, s: "time_desc", t: 1, p: "a" }));
  invalid(craft({ v: 1.5, s: "time_desc", t: 1, p: "a" }));
});

Deno.test("decodeCursor() reports CursorVersionMismatch for version 2", () => {
  throwsCode(
    () => decodeCursor(craft({ v: 2, s: "time_desc", t: 1, p: "a", q: Q }), "time_desc", Q),
    "CursorVersionMismatch",
  );
  throwsCode(
    () => decodeCursor(craft({ v: 0, s: "time_desc", t: 1, p: "a" }), "time_desc", Q),
    "CursorVersionMismatch",
  );
});

Deno.test("decodeCursor() reports CursorVersionMismatch even when the other fields are garbage", () => {
  throwsCode(
    () => decodeCursor(craft({ v: 2, s: 42, t: "x", p: [], w: {}, q: 3 }), "path_asc", Q),
    "CursorVersionMismatch",
  );
  throwsCode(() => decodeCursor(craft({ v: 2 }), "path_asc", Q), "CursorVersionMismatch");
});

Deno.test("decodeCursor() reports CursorSortMismatch for another sort", () => {
  const text = encodeCursor("time_desc", { key: { time: 1, path: "a" }, boundary: null }, Q);
  const err = throwsCode(() => decodeCursor(text, "path_asc", Q), "CursorSortMismatch");
  assert.match(err.message, /time_desc/);
  throwsCode(() => decodeCursor(text, "time_asc", Q), "CursorSortMismatch");
});

Deno.test("decodeCursor() rejects an unknown or missing sort as CursorInvalid", () => {
  invalid(craft({ v: 1, s: "name_asc", t: 1, p: "a" }));
  invalid(craft({ v: 1, s: "TIME_DESC", t: 1, p: "a" }));
  invalid(craft({ v: 1, s: 1, t: 1, p: "a" }));
  invalid(craft({ v: 1, t: 1, p: "a" }));
});

Deno.test("decodeCursor() rejects a time without a path and a path without a time", () => {
  invalid(craft({ v: 1, s: "time_desc", t: 1 }));
  invalid(craft({ v: 1, s: "time_desc", t: 1, w: "b" }));
  invalid(craft({ v: 1, s: "time_desc", p: "a" }));
});

Deno.test("decodeCursor() rejects a path that is not a string", () => {
  invalid(craft({ v: 1, s: "time_desc", t: 1, p: 5 }));
  invalid(craft({ v: 1, s: "time_desc", t: 1, p: null }));
  invalid(craft({ v: 1, s: "time_desc", t: 1, p: ["a"] }));
});

Deno.test("decodeCursor() rejects a time that is not a whole number of ms", () => {
  invalid(craft({ v: 1, s: "time_desc", t: 1.5, p: "a" }));
  invalid(craft({ v: 1, s: "time_desc", t: "1", p: "a" }));
  invalid(craft({ v: 1, s: "time_desc", t: true, p: "a" }));
  invalid(craft({ v: 1, s: "time_desc", t: 2 ** 60, p: "a" }));
});

Deno.test("decodeCursor() rejects a boundary that is not a string", () => {
  invalid(craft({ v: 1, s: "time_desc", w: 5 }));
  invalid(craft({ v: 1, s: "time_desc", w: null }));
  invalid(craft({ v: 1, s: "time_desc", t: 1, p: "a", w: false }));
});

Deno.test("decodeCursor() rejects a cursor with neither a key nor a boundary", () => {
  invalid(craft({ v: 1, s: "time_desc" }));
  invalid(craft({ v: 1, s: "time_desc", q: Q }));
});

Deno.test("decodeCursor() rejects another query's cursor as CursorInvalid", () => {
  const text = encodeCursor(
    "time_desc",
    { key: { time: 1, path: "a" }, boundary: null },
    "other-query",
  );
  const err = invalid(text);
  assert.match(err.message, /different query/);
});

Deno.test("decodeCursor() rejects a query field that is not a string", () => {
  invalid(craft({ v: 1, s: "time_desc", t: 1, p: "a", q: 5 }));
});

Deno.test("decodeCursor() accepts a cursor without a query hash", () => {
  const text = craft({ v: 1, s: "path_asc", t: null, p: "a" });
  assert.deepEqual(decodeCursor(text, "path_asc", "anything"), {
    key: { time: null, path: "a" },
    boundary: null,
  });
});

Deno.test("decodeCursor() error messages never echo the cursor's path", () => {
  const secret = "/etc/passwd";
  const err = throwsCode(
    () => decodeCursor(craft({ v: 1, s: "time_desc", t: 1, p: secret, q: "x" }), "time_desc", Q),
    "CursorInvalid",
  );
  assert.ok(!err.message.includes(secret));
  assert.ok(!err.fix.includes(secret));
});

// ---- queryHash ----

/** The query's parts, flat, as the tool's arguments name them. */
interface HashInput {
  exclude?: string[];
  respectIgnoreFiles?: boolean;
  includeVcs?: boolean;
  root: SearchRequest["root"];
  path: string;
  timeField: SearchRequest["filter"]["timeField"];
  from: number | null;
  to: number | null;
  glob: string | null;
  recursive: boolean;
  maxDepth: number | null;
  includeFiles: boolean;
  includeDirectories: boolean;
  includeUnknownTime: boolean;
}

function queryHash(q: HashInput): string {
  const { root, path, recursive, maxDepth, ...filter } = q;
  return hashOf({
    root,
    start: { path, recursive, maxDepth },
    filter: {
      exclude: [],
      respectIgnoreFiles: false,
      includeVcs: false,
      caseSensitive: null,
      minSizeBytes: null,
      maxSizeBytes: null,
      ...filter,
    },
  });
}

const BASE: HashInput = {
  root: { path: "/srv/docs", realPath: "/srv/docs" },
  path: "notes/2025",
  timeField: "modified",
  from: 1765756800000,
  to: null,
  glob: "**/*.md",
  recursive: true,
  maxDepth: null,
  includeFiles: true,
  includeDirectories: false,
  includeUnknownTime: false,
};

Deno.test("queryHash() is stable for the same input", () => {
  assert.equal(queryHash(BASE), queryHash({ ...BASE, root: { ...BASE.root } }));
});

Deno.test("queryHash() keeps its value across restarts (fixed hash function)", () => {
  // Computed once: the first 12 base64url characters of the SHA-256 of the canonical JSON
  // (keys sorted) of {root, start, filter}. If this changes, cursors handed out before an
  // upgrade stop working (it changed in 0.2, when the hash became derived, and again when
  // the filter gained caseSensitive: a glob's case rule changed, so its old pages would not
  // continue the same query; and again when it gained includeVcs, for the same reason:
  // what lies inside .git is left out by default since then, contract §27).
  assert.equal(queryHash(BASE), "HYNY3W52NHKL");
});

Deno.test("queryHash() is short and base64url", () => {
  assert.match(queryHash(BASE), /^[A-Za-z0-9_-]{8,32}$/);
});

Deno.test("queryHash() differs when any part of the query differs", () => {
  const variants: [string, HashInput][] = [
    ["root.path", { ...BASE, root: { path: "/srv/other", realPath: "/srv/docs" } }],
    ["path", { ...BASE, path: "notes" }],
    ["path (root)", { ...BASE, path: "" }],
    ["timeField", { ...BASE, timeField: "created" }],
    ["from", { ...BASE, from: 1765756800001 }],
    ["from null", { ...BASE, from: null }],
    ["to", { ...BASE, to: 1765756800000 }],
    ["glob", { ...BASE, glob: "*.md" }],
    ["glob null", { ...BASE, glob: null }],
    ["recursive", { ...BASE, recursive: false }],
    ["maxDepth", { ...BASE, maxDepth: 3 }],
    ["maxDepth 0", { ...BASE, maxDepth: 0 }],
    ["includeFiles", { ...BASE, includeFiles: false }],
    ["includeDirectories", { ...BASE, includeDirectories: true }],
    ["includeUnknownTime", { ...BASE, includeUnknownTime: true }],
    ["exclude", { ...BASE, exclude: ["**/node_modules"] }],
    ["exclude order", { ...BASE, exclude: ["b", "a"] }],
    ["exclude other order", { ...BASE, exclude: ["a", "b"] }],
    ["respectIgnoreFiles", { ...BASE, respectIgnoreFiles: true }],
    ["includeVcs", { ...BASE, includeVcs: true }],
  ];
  const base = queryHash(BASE);
  const seen = new Map<string, string>([[base, "base"]]);
  for (const [name, variant] of variants) {
    const h = queryHash(variant);
    assert.notEqual(h, base, name);
    assert.ok(!seen.has(h), `${name} collides with ${seen.get(h)}`);
    seen.set(h, name);
  }
});

Deno.test("queryHash() does not confuse a path with a glob of the same text", () => {
  assert.notEqual(
    queryHash({ ...BASE, path: "a", glob: null }),
    queryHash({ ...BASE, path: "", glob: "a" }),
  );
});

Deno.test("queryHash() ignores maxDepth when recursive is false", () => {
  const flat = { ...BASE, recursive: false };
  assert.equal(queryHash({ ...flat, maxDepth: 3 }), queryHash({ ...flat, maxDepth: null }));
  assert.equal(queryHash({ ...flat, maxDepth: 0 }), queryHash({ ...flat, maxDepth: 7 }));
});

// ---- queryHash over real requests ----

/** Tool arguments of every kind the query takes (what parseArguments() turns into a request). */
const ARGUMENTS = fc.record({
  timeField: fc.constantFrom("modified", "created"),
  path: fc.option(fc.constantFrom("notes", "notes/2025", "a b"), { nil: undefined }),
  from: fc.option(fc.constantFrom("2025-01-01T00:00:00Z", "2025-06-01T12:00:00+09:00"), {
    nil: undefined,
  }),
  to: fc.option(fc.constantFrom("2026-01-01T00:00:00Z"), { nil: undefined }),
  glob: fc.option(fc.constantFrom("**/*.md", "*", "docs/**"), { nil: undefined }),
  recursive: fc.option(fc.boolean(), { nil: undefined }),
  maxDepth: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  includeFiles: fc.option(fc.boolean(), { nil: undefined }),
  includeDirectories: fc.option(fc.boolean(), { nil: undefined }),
  includeUnknownTime: fc.option(fc.boolean(), { nil: undefined }),
  exclude: fc.option(fc.array(fc.constantFrom("**/node_modules", "dist/**")), { nil: undefined }),
  respectIgnoreFiles: fc.option(fc.boolean(), { nil: undefined }),
}).map((a) => Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)));

/** Every leaf of `value` below `prefix`, as [path, value]. */
function leaves(value: unknown, prefix: string[] = []): [string[], unknown][] {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, [...prefix, k]));
  }
  return [[prefix, value]];
}

/** `value` changed into another value of its kind. */
function changed(value: unknown): unknown {
  if (typeof value === "boolean") return !value;
  if (typeof value === "number") return value + 1;
  if (typeof value === "string") return value + "x";
  if (Array.isArray(value)) return [...value, "x"];
  return 0; // null
}

/** A copy of `object` with the leaf at `path` set to `value`. */
function withLeaf<T>(object: T, path: string[], value: unknown): T {
  const copy = structuredClone(object) as Record<string, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path.at(-1)!] = value;
  return copy as T;
}

Deno.test("queryHash() of a real request changes with every key of its root, start and filter, and with nothing else", () => {
  const config = loadConfig({
    env: (name) => ({ ALLOW_ROOTS: "/" } as Record<string, string>)[name],
  });
  fc.assert(
    fc.property(ARGUMENTS, fc.constantFrom("time_desc", "time_asc", "path_asc"), (args, sort) => {
      const { request } = parseArguments(args, config);
      const base = hashOf(request);
      const query = {
        root: { path: request.root.path },
        start: request.start,
        filter: request.filter,
      };
      for (const [path, value] of leaves(query)) {
        // maxDepth means nothing without recursion (contract §8): the hash ignores it then.
        if (path.join(".") === "start.maxDepth" && !request.start.recursive) continue;
        const other = withLeaf(request, path, changed(value));
        assert.notEqual(hashOf(other), base, `changing ${path.join(".")} kept the hash`);
      }
      // What is not the query: the order, the page size, where the page starts.
      const { sort: _s, ...rest } = args as Record<string, unknown>;
      const again = parseArguments({ ...rest, sort, limit: 7 }, config).request;
      const withAfter: SearchRequest = {
        ...again,
        after: { key: { time: 1, path: "a" }, boundary: "a" },
      };
      assert.equal(
        hashOf(withAfter),
        base,
      );
    }),
    { numRuns: 200 },
  );
});
