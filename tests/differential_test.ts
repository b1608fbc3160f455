/**
 * Differential test: the real server (over MCP stdio) against a reference walk written
 * here from contract §5-§11 (lstat only, never following links), on a tree with every
 * kind of entry, for random queries followed to the end of their paging.
 */
import assert from "node:assert/strict";
import path from "node:path";
import fc from "npm:fast-check@4.10.2";
// @ts-types="@types/picomatch"
import picomatch from "picomatch";
import { connect, type Connection, textOf } from "./helpers/server.ts";
import { makeTree, T0 } from "./helpers/tree.ts";
import { makeOddTree, ODD_LINKS } from "./helpers/odd_tree.ts";
import { sanitize } from "./helpers/sanitize.ts";

/** The server walks: the live index is off (tests/index/ compares it with the walk). */
const WALK = { INDEX: "off" };

type Sort = "time_desc" | "time_asc" | "path_asc";
interface Query {
  timeField: "modified" | "created";
  limit: number;
  sort?: Sort;
  path?: string;
  glob?: string;
  recursive?: boolean;
  maxDepth?: number;
  includeFiles?: boolean;
  includeDirectories?: boolean;
  includeUnknownTime?: boolean;
  from?: string;
  to?: string;
}
interface Match {
  path: string;
  isDirectory: boolean;
  sizeBytes: number | null;
  modifiedAt: string;
  createdAt: string | null;
}
interface Page {
  timeField: string;
  range: { from: string | null; to: string | null };
  matches: Match[];
  nextCursor: string | null;
  stats: { returned: number; truncated?: boolean; totalMatches?: number };
}

// ---- The reference walk ----------------------------------------------------------

/** One entry as the contract reports it (§8: lstat; §7: birth time null or 0 is unknown). */
function entryOf(root: string, rel: string): Match {
  const info = Deno.lstatSync(rel === "" ? root : path.join(root, ...rel.split("/")));
  const birth = info.birthtime?.getTime() ?? 0;
  return {
    path: rel,
    isDirectory: info.isDirectory,
    sizeBytes: info.isDirectory ? null : info.size,
    modifiedAt: info.mtime!.toISOString(),
    createdAt: birth === 0 ? null : new Date(birth).toISOString(),
  };
}

/**
 * §9: picomatch, plus a trailing `/**` that also matches zero segments; smart case (any case
 * unless the glob has an upper-case letter).
 */
function globMatcher(glob: string | undefined): (p: string) => boolean {
  if (glob === undefined) return () => true;
  const options = { dot: true, posix: true, windows: false, nocase: !/\p{Lu}/u.test(glob) };
  const full = picomatch(glob, options);
  const bare = glob.endsWith("/**") ? picomatch(glob.slice(0, -3), options) : () => false;
  return (p) => full(p) || bare(p);
}

/** The time a sort and filter use; `null` is unknown. */
const timeOf = (m: Match, field: Query["timeField"]) => {
  const iso = field === "modified" ? m.modifiedAt : m.createdAt;
  return iso === null ? null : Date.parse(iso);
};

/** §10: time orders put unknown times last, ties and path_asc by UTF-16 path. */
function compare(sort: Sort, field: Query["timeField"]): (a: Match, b: Match) => number {
  const byPath = (a: Match, b: Match) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  if (sort === "path_asc") return byPath;
  return (a, b) => {
    const ta = timeOf(a, field), tb = timeOf(b, field);
    if (ta === null || tb === null) return ta === tb ? byPath(a, b) : ta === null ? 1 : -1;
    return ta === tb ? byPath(a, b) : sort === "time_asc" ? ta - tb : tb - ta;
  };
}

/** All matches of `q` in order (§5-§10), or the error code expected. */
function reference(root: string, q: Query): Match[] | string {
  const from = q.from === undefined ? null : Date.parse(q.from);
  const to = q.to === undefined ? null : Date.parse(q.to);
  if (from !== null && to !== null && from > to) return "InvalidRange";
  let start = path.posix.normalize((q.path ?? "").replaceAll("\\", "/"));
  if (start === ".") start = "";
  const candidates: Match[] = [];
  const walk = (dir: string, depth: number, maxDepth: number) => {
    for (const child of Deno.readDirSync(dir === "" ? root : path.join(root, dir))) {
      const rel = dir === "" ? child.name : `${dir}/${child.name}`;
      const entry = entryOf(root, rel);
      candidates.push(entry);
      if (entry.isDirectory && depth + 1 < maxDepth) walk(rel, depth + 1, maxDepth);
    }
  };
  const first = entryOf(root, start);
  if (!first.isDirectory) candidates.push(first);
  else if (q.recursive === false) walk(start, 0, 1);
  else {
    const maxDepth = q.maxDepth ?? 256;
    if (start !== "") candidates.push(first);
    if (maxDepth > 0) walk(start, 0, maxDepth);
  }
  const glob = globMatcher(q.glob);
  const inTime = (m: Match) => {
    const t = timeOf(m, q.timeField);
    if (from !== null && from === to) return false;
    if (t === null) return q.includeUnknownTime === true;
    return (from === null || from <= t) && (to === null || t < to);
  };
  return candidates
    .filter((m) => m.isDirectory ? q.includeDirectories === true : q.includeFiles !== false)
    .filter((m) => glob(m.path) && inTime(m))
    .sort(compare(q.sort ?? "time_desc", q.timeField));
}

// ---- Driving the server ----------------------------------------------------------

/** Follows nextCursor to the end and checks every page and the whole against the reference. */
async function agree(conn: Connection, root: string, q: Query, limited: boolean): Promise<void> {
  const expected = reference(root, q);
  if (typeof expected === "string") {
    const result = await conn.search(q);
    assert.equal(result.isError, true);
    assert.equal(textOf(result).split("\n")[0], `ErrorCode: ${expected}`);
    return;
  }
  const order = compare(q.sort ?? "time_desc", q.timeField);
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const result = await conn.search(cursor === null ? q : { ...q, cursor });
    assert.equal(result.isError, false, `page ${pages.length}: ${textOf(result)}`);
    const page = result.structuredContent as unknown as Page;
    pages.push(page);
    const at = `page ${pages.length - 1}`;
    assert.equal(page.timeField, q.timeField);
    assert.deepEqual(page.range, {
      from: q.from === undefined ? null : new Date(q.from).toISOString(),
      to: q.to === undefined ? null : new Date(q.to).toISOString(),
    });
    assert.equal(page.stats.returned, page.matches.length, at);
    assert.ok(page.matches.length <= q.limit, at);
    const sorted = [...page.matches].sort(order);
    assert.deepEqual(page.matches, sorted, `${at} is not sorted within itself`);
    if (!limited) assert.notEqual(page.stats.truncated, true, `${at} truncated`);
    if (page.stats.truncated !== true && page.nextCursor !== null) {
      assert.equal(page.matches.length, q.limit, `${at} has a nextCursor but is not full`);
    }
    const before = pages.at(-2);
    if (before && before.stats.truncated !== true && page.matches.length === 0) {
      assert.fail(`${at} is empty after a complete page with a nextCursor`);
    }
    cursor = page.nextCursor;
    assert.ok(pages.length < 500, "paging does not end");
  } while (cursor !== null);
  const got = pages.flatMap((p) => p.matches);
  assert.equal(new Set(got.map((m) => m.path)).size, got.length, "a match is repeated");
  if (pages.every((p) => p.stats.truncated !== true)) {
    assert.deepEqual(got, expected);
    // §11: a time sort's first page scans the whole query; a path_asc one may stop early.
    if (q.sort !== "path_asc") assert.equal(pages[0]!.stats.totalMatches, expected.length);
    for (const { stats } of pages) {
      if (stats.totalMatches !== undefined) assert.equal(stats.totalMatches, expected.length);
    }
  } else {
    const byPath = compare("path_asc", q.timeField);
    assert.deepEqual([...got].sort(byPath), [...expected].sort(byPath));
    if (q.sort === "path_asc") assert.deepEqual(got, expected);
  }
}

// ---- Explicit cases: rules the server broke (§8 last link, §9 trailing /**, §11) --

Deno.test({
  name: "differential: explicit cases",
  ...sanitize,
  async fn(t) {
    await using tree = await makeTree({
      "d1/a.txt": { mtime: T0 },
      "d1/sub/b.txt": { mtime: T0 },
      "top.txt": { mtime: T0, content: "sixteen bytes..." },
      "ln_dir": { kind: "symlink", target: "d1" },
      "ln_file": { kind: "symlink", target: "top.txt" },
    });
    await using conn = await connect({ ...WALK, ALLOW_ROOTS: tree.root });
    const paths = async (args: Record<string, unknown>) => {
      const result = await conn.search({ timeField: "modified", sort: "path_asc", ...args });
      assert.equal(result.isError, false, textOf(result));
      return (result.structuredContent as unknown as Page).matches;
    };
    const all = { includeDirectories: true };
    await t.step("path naming a symlink to a folder returns the link itself", async () => {
      assert.deepEqual(await paths({ ...all, path: "ln_dir" }), [entryOf(tree.root, "ln_dir")]);
    });
    await t.step("path naming a symlink to a file returns the link itself", async () => {
      assert.deepEqual(await paths({ path: "ln_file" }), [entryOf(tree.root, "ln_file")]);
    });
    await t.step("glob */** matches every entry, top level included", async () => {
      const got = (await paths({ ...all, glob: "*/**" })).map((m) => m.path);
      assert.deepEqual(got, "d1 d1/a.txt d1/sub d1/sub/b.txt ln_dir ln_file top.txt".split(" "));
    });
    await t.step("glob d1/** matches the folder d1 itself", async () => {
      const got = (await paths({ ...all, glob: "d1/**" })).map((m) => m.path);
      assert.deepEqual(got, ["d1", "d1/a.txt", "d1/sub", "d1/sub/b.txt"]);
    });
    await t.step("the same query paged again with a smaller limit loses nothing", async () => {
      const q = { timeField: "modified", sort: "path_asc", includeDirectories: true } as const;
      await agree(conn, tree.root, { ...q, limit: 3 }, false);
      await agree(conn, tree.root, { ...q, limit: 1 }, false);
    });
  },
});

// ---- Random queries ----------------------------------------------------------------

const PLAIN_PATHS = ["", ".", "d1", "d1/sub", "d2", "a", "empty", ".dotdir", "d1/../d2"];
const MORE_PATHS = ["d1\\sub", "a.txt", "d2/😀.txt", "d2/fifo", "d2/한글.txt", "d2/sub😀"];
const LINK_PATHS = Object.keys(ODD_LINKS);
const PLAIN_GLOBS = ["**/*.txt", "**", "*", "**/.*", "{a,b}*", "d1/*", "*.txt", "**/*.md"];
const MORE_GLOBS = ["[ab]*", "**/ln_*", "d1/**/*.txt", "**/한*", "**/*😀*", ".*", "?.txt", "B*"];
const TRAILING_GLOBS = ["*/**", "d1/**", "**/sub/**", "d2/**", "{a,d1}/**", ".dotdir/**"];

/** Mostly `value`, sometimes the other boolean. */
const mostly = (value: boolean) => fc.constantFrom(value, value, value, value, !value);

/** An entry time ±1 ms, written with a random offset (§7). */
function instant(times: number[]): fc.Arbitrary<string> {
  const offset = fc.constantFrom(0, 540, -330);
  return fc.tuple(fc.constantFrom(...times), fc.integer({ min: -1, max: 1 }), offset)
    .map(([t, d, off]) => {
      const local = new Date(t + d + off * 60_000).toISOString().slice(0, 23);
      if (off === 0) return `${local}Z`;
      const hh = String(Math.floor(Math.abs(off) / 60)).padStart(2, "0");
      return `${local}${off < 0 ? "-" : "+"}${hh}:${String(Math.abs(off) % 60).padStart(2, "0")}`;
    });
}

/** Random queries; from/to are times of the chosen field. */
function queries(
  times: Record<Query["timeField"], number[]>,
  paths: string[],
  globs: string[],
): fc.Arbitrary<Query> {
  return fc.constantFrom("modified" as const, "created" as const).chain((timeField) =>
    fc.record({
      timeField: fc.constant(timeField),
      limit: fc.integer({ min: 1, max: 7 }),
      sort: fc.constantFrom("time_desc" as const, "time_asc" as const, "path_asc" as const),
      path: fc.constantFrom(...paths),
      glob: fc.constantFrom(...globs),
      recursive: mostly(true),
      maxDepth: fc.integer({ min: 0, max: 5 }),
      includeFiles: mostly(true),
      includeDirectories: fc.boolean(),
      includeUnknownTime: fc.boolean(),
      from: instant(times[timeField]),
      to: instant(times[timeField]),
    }, { requiredKeys: ["timeField", "limit"] })
  );
}

Deno.test({
  name: "differential: random queries agree with the reference walk, paged to the end",
  ...sanitize,
  async fn(t) {
    await using tree = await makeOddTree();
    const { root } = tree;
    const entries = tree.paths.map((p) => entryOf(root, p));
    const modified = [...new Set(entries.map((m) => Date.parse(m.modifiedAt)))];
    const born = [...new Set(entries.flatMap((m) => m.createdAt ? [Date.parse(m.createdAt)] : []))];
    const times = { modified, created: born.length > 0 ? born : modified };
    const files = 3 + Math.floor(Math.random() * 8), dirs = 1 + Math.floor(Math.random() * 4);
    const limits = { MAX_FILES_SCANNED: String(files), MAX_DIRECTORIES_SCANNED: String(dirs) };
    await using plain = await connect({ ...WALK, ALLOW_ROOTS: root });
    await using small = await connect({ ...WALK, ALLOW_ROOTS: root, ...limits });
    const property = (conn: Connection, paths: string[], globs: string[], numRuns: number) =>
      fc.assert(
        fc.asyncProperty(queries(times, paths, globs), (q) => agree(conn, root, q, conn === small)),
        { numRuns },
      );
    const paths = [...PLAIN_PATHS, ...MORE_PATHS], globs = [...PLAIN_GLOBS, ...MORE_GLOBS];
    await t.step("default limits, plain paths and globs", () => property(plain, paths, globs, 40));
    await t.step(
      "default limits, globs ending in /** (§9)",
      () => property(plain, paths, TRAILING_GLOBS, 10),
    );
    await t.step(
      "default limits, path naming a symlink (§8)",
      () => property(plain, LINK_PATHS, globs, 10),
    );
    const name = `MAX_FILES_SCANNED=${files} MAX_DIRECTORIES_SCANNED=${dirs}`;
    await t.step(`${name}, plain paths and globs`, () => property(small, paths, globs, 30));
    await t.step(
      `${name}, globs ending in /** and symlink paths`,
      () => property(small, [...paths, ...LINK_PATHS], TRAILING_GLOBS, 10),
    );
  },
});
