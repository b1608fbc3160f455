/**
 * The rooms of `src/` keep their layering: each folder's `mod.ts` says in its doc comment
 * what the folder may import ("May import: ..."), and this reads every import statement in
 * `src/` to check that a module imports from another folder only what that line allows,
 * and only through the other folder's `mod.ts`, never its internals.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

/** The rooms of src/ (its folders) and what each may import, from its mod.ts. */
function rooms(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const entry of Deno.readDirSync(SRC)) {
    if (!entry.isDirectory) continue;
    const mod = path.join(SRC, entry.name, "mod.ts");
    const text = Deno.readTextFileSync(mod); // every room has one
    const doc = text.slice(0, text.indexOf("*/")).split("\n").map((l) =>
      l.replace(/^\s*\*\s?/, "")
    );
    const start = doc.findIndex((l) => l.startsWith("May import:"));
    assert.ok(start >= 0, `${entry.name}/mod.ts does not say what the folder may import`);
    let line = "";
    for (let i = start; i < doc.length && doc[i]!.trim() !== ""; i++) line += " " + doc[i];
    const list = line.replace("May import:", "").trim().replace(/\.$/, "");
    const allowed = list === "nothing of the project"
      ? []
      : list.split(",").map((s) => s.trim()).filter((s) => s !== "");
    out.set(entry.name, new Set(allowed));
  }
  return out;
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

/** Every `.ts` file below `dir`. */
function sources(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory ? sources(p) : e.name.endsWith(".ts") ? [p] : [];
  });
}

/** The import statements in `src/` that break the layering, as readable lines. */
export function violations(): string[] {
  const allowed = rooms();
  const out: string[] = [];
  for (const [room, may] of allowed) {
    for (const file of sources(path.join(SRC, room))) {
      for (const spec of imports(file)) {
        const target = path.resolve(path.dirname(file), spec);
        const rel = path.relative(SRC, target);
        const where = `${path.relative(SRC, file)} imports ${spec}`;
        if (rel.startsWith("..")) out.push(`${where}: outside src/`);
        else if (!rel.includes(path.sep)) {
          if (!may.has(rel)) out.push(`${where}: ${room}/ may not import ${rel}`);
        } else {
          const [other, ...rest] = rel.split(path.sep);
          if (other === room) continue;
          if (!may.has(other!)) out.push(`${where}: ${room}/ may not import ${other}/`);
          else if (rest.join("/") !== "mod.ts") out.push(`${where}: not through ${other}/mod.ts`);
        }
      }
    }
  }
  return out;
}

Deno.test("layering: every folder of src/ says what it may import, and keeps to it", () => {
  assert.deepEqual(violations(), []);
});

Deno.test("layering: the rooms are the ones the README describes", () => {
  assert.deepEqual([...rooms().keys()].sort(), [
    "cli",
    "index",
    "mcp",
    "paging",
    "ports",
    "query",
    "search",
    "security",
    "walk",
    "workers",
  ]);
});
