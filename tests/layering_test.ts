/**
 * The rooms of `src/` keep their layering (tests/layering_test.ts covers every folder's
 * `mod.ts`): each folder of `src/`, and each folder inside one that has a `mod.ts` of its
 * own (a sub-room, named like `index/store`), says in its doc comment what it may import
 * ("May import: ..."). This reads every import statement in `src/` and checks that a module
 * imports from another room only what that line allows, and only through the other room's
 * `mod.ts`, never its internals; a room may import its own sub-rooms (through their
 * `mod.ts`), and a sub-room the modules of the room it is in, when it names that room.
 * No folder holds more than 12 modules, and no module more than 300 lines.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../src", import.meta.url));
/** The most modules (`.ts` files) one folder of `src/` may hold. */
const MOST_MODULES = 12;
/** The most lines one module of `src/` may have. */
const MOST_LINES = 300;

/** What a room's mod.ts says it may import. */
function mayImport(dir: string, name: string): Set<string> {
  const text = Deno.readTextFileSync(path.join(dir, "mod.ts")); // every room has one
  const doc = text.slice(0, text.indexOf("*/")).split("\n").map((l) => l.replace(/^\s*\*\s?/, ""));
  const start = doc.findIndex((l) => l.startsWith("May import:"));
  assert.ok(start >= 0, `${name}/mod.ts does not say what the folder may import`);
  let line = "";
  for (let i = start; i < doc.length && doc[i]!.trim() !== ""; i++) line += " " + doc[i];
  const list = line.replace("May import:", "").trim().replace(/\.$/, "");
  return new Set(
    list === "nothing of the project"
      ? []
      : list.split(",").map((s) => s.trim()).filter((s) => s !== ""),
  );
}

/** The rooms of src/ (its folders, and their folders with a mod.ts), each with its list. */
export function rooms(src = SRC): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const top of Deno.readDirSync(src)) {
    if (!top.isDirectory) continue;
    out.set(top.name, mayImport(path.join(src, top.name), top.name));
    for (const sub of Deno.readDirSync(path.join(src, top.name))) {
      const dir = path.join(src, top.name, sub.name);
      if (!sub.isDirectory) continue;
      const name = `${top.name}/${sub.name}`;
      assert.ok(exists(path.join(dir, "mod.ts")), `${name}/ has no mod.ts`);
      out.set(name, mayImport(dir, name));
    }
  }
  return out;
}

function exists(file: string): boolean {
  try {
    return Deno.statSync(file).isFile;
  } catch {
    return false;
  }
}

/** The relative specifiers a module imports or re-exports from. */
function imports(file: string): string[] {
  const text = Deno.readTextFileSync(file);
  const found: string[] = [];
  for (
    const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/gms)
  ) {
    found.push(m[1]!);
  }
  for (const m of text.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)) found.push(m[1]!);
  return found;
}

/** The `.ts` files right in `dir` (not in its folders). */
function modules(dir: string): string[] {
  return [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && e.name.endsWith(".ts"))
    .map((e) => path.join(dir, e.name));
}

/**
 * Why the module at `from` (a path below `src`, `/`-separated) may not import what `spec`
 * names, or `null` when it may.
 */
export function violation(
  all: Map<string, Set<string>>,
  from: string,
  spec: string,
): string | null {
  const room = from.slice(0, from.lastIndexOf("/"));
  const may = all.get(room)!;
  const rel = path.posix.normalize(path.posix.join(room, spec));
  if (rel.startsWith("..")) return "outside src/";
  const dir = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "";
  if (dir === "") return may.has(rel) ? null : `${room}/ may not import ${rel}`;
  const target = all.has(dir) ? dir : dir.split("/")[0]!;
  const file = rel.slice(target.length + 1);
  if (target === room) return null;
  if (target.startsWith(room + "/")) {
    return file === "mod.ts" ? null : `not through ${target}/mod.ts`;
  }
  if (room.startsWith(target + "/") && !file.includes("/")) {
    return may.has(target) ? null : `${room}/ may not import ${target}/`;
  }
  if (!may.has(target)) return `${room}/ may not import ${target}/`;
  return file === "mod.ts" ? null : `not through ${target}/mod.ts`;
}

/** The import statements in `src/` that break the layering, as readable lines. */
export function violations(): string[] {
  const all = rooms();
  const out: string[] = [];
  for (const room of all.keys()) {
    for (const file of modules(path.join(SRC, room))) {
      const from = path.relative(SRC, file).split(path.sep).join("/");
      for (const spec of imports(file)) {
        const why = violation(all, from, spec);
        if (why !== null) out.push(`${from} imports ${spec}: ${why}`);
      }
    }
  }
  return out;
}

Deno.test("layering: every room of src/ says what it may import, and keeps to it", () => {
  assert.deepEqual(violations(), []);
});

Deno.test("layering: an import against the rooms is found", () => {
  const all = rooms();
  // Storage may import nothing else of the index; a room only through another's mod.ts.
  assert.match(violation(all, "index/store/folder_tree.ts", "../cache/mod.ts")!, /may not/);
  assert.match(violation(all, "index/cache/held_tree.ts", "../store/folder_tree.ts")!, /through/);
  assert.match(violation(all, "index/live_index.ts", "./store/entry_columns.ts")!, /through/);
  assert.match(violation(all, "walk/walk.ts", "../index/mod.ts")!, /may not/);
  assert.match(violation(all, "search/mod.ts", "../index/watch/mod.ts")!, /may not/);
  assert.equal(violation(all, "index/cache/held_tree.ts", "../store/mod.ts"), null);
  assert.equal(violation(all, "index/watch/root_watch.ts", "../scan_turns.ts"), null);
});

Deno.test("layering: no folder of src/ holds more than 12 modules", () => {
  const crowded = [SRC, ...[...rooms().keys()].map((r) => path.join(SRC, r))]
    .map((dir) => [path.relative(SRC, dir) || "src", modules(dir).length] as const)
    .filter(([, n]) => n > MOST_MODULES);
  assert.deepEqual(crowded, []);
});

Deno.test("layering: no module of src/ is over 300 lines", () => {
  const long = [SRC, ...[...rooms().keys()].map((r) => path.join(SRC, r))]
    .flatMap((dir) => modules(dir))
    .map((file) => [path.relative(SRC, file), lineCount(file)] as const)
    .filter(([, n]) => n > MOST_LINES);
  assert.deepEqual(long, []);
});

/** The lines of a text file (a last line without its newline counts too). */
function lineCount(file: string): number {
  const text = Deno.readTextFileSync(file);
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

Deno.test("layering: the rooms are the ones docs/architecture.md describes", () => {
  assert.deepEqual([...rooms().keys()].sort(), [
    "changes",
    "cli",
    "index",
    "index/answer",
    "index/cache",
    "index/fill",
    "index/focus",
    "index/journal",
    "index/store",
    "index/watch",
    "link",
    "mcp",
    "paging",
    "ports",
    "query",
    "query/arguments",
    "query/calls",
    "search",
    "security",
    "service",
    "walk",
    "wire",
    "workers",
  ]);
});

Deno.test("layering: docs/architecture.md's module list names every module of src/", () => {
  const readme = Deno.readTextFileSync(new URL("../docs/architecture.md", import.meta.url));
  const all = [SRC, ...[...rooms().keys()].map((r) => path.join(SRC, r))].flatMap(modules);
  const missing = all.map((file) => path.basename(file))
    .filter((name) => name !== "mod.ts" && !readme.includes(name));
  assert.deepEqual(missing, []);
});
