/**
 * Smart case and excludes by name (contract §9, §17, §26), the index and a walk alike: on
 * random trees of mixed-case names, random globs and excludes (with and without an
 * upper-case letter, with and without '/') and every `caseSensitive`, every query paged to
 * the end gives the same pages from the index as from a walk, and those pages hold exactly
 * what a plain reference says (each path tested on its own: case folded unless the pattern
 * has an upper-case letter or `caseSensitive` says otherwise; a name with no '/' at any
 * depth; an excluded folder leaves out all below it).
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import picomatch from "npm:picomatch@4.0.7";
import { alike, allPages, engine, pagesOrCode } from "../helpers/engine.ts";
import { DAY, makeTree, T0, type TreeSpec } from "../helpers/tree.ts";
import { NO_INDEX, readyIndex } from "../helpers/live_index.ts";
import { sanitize } from "../helpers/sanitize.ts";

/** Names that differ only in case need a file system that keeps them apart (not macOS's). */
const CASE_KEPT = Deno.build.os === "linux";
if (!CASE_KEPT) console.log("case property test skipped: it needs a case-sensitive file system");

const NAME = fc.constantFrom("a", "A", "b", "B", "a.md", "A.MD", "Ab", "node_modules");

const TREE = fc.uniqueArray(fc.array(NAME, { minLength: 1, maxLength: 3 }), {
  minLength: 1,
  maxLength: 20,
  selector: (s) => s.join("/"),
}).map((paths) => {
  const spec: TreeSpec = {};
  const dirs = new Set<string>();
  for (const p of paths) for (let i = 1; i < p.length; i++) dirs.add(p.slice(0, i).join("/"));
  paths.forEach((p, i) => {
    const path = p.join("/");
    if (!dirs.has(path)) spec[path] = { mtime: T0 + (i % 4) * DAY };
  });
  for (const d of dirs) spec[d] = { kind: "dir", mtime: T0 };
  return spec;
});

const GLOB = fc.constantFrom("**/a", "**/A", "**/*.md", "**/*.MD", "a/**", "A/*", "**/*b*");
const EXCLUDE = fc.constantFrom("a", "A", "node_modules", "*.md", "a/b", "A/B", "**/Ab");

const CASE = fc.record({
  glob: fc.option(GLOB, { nil: undefined }),
  exclude: fc.array(EXCLUDE, { maxLength: 2 }),
  caseSensitive: fc.option(fc.boolean(), { nil: undefined }),
  sort: fc.constantFrom("time_desc", "path_asc"),
  limit: fc.integer({ min: 1, max: 7 }),
  includeDirectories: fc.boolean(),
});

type Case = {
  glob?: string;
  exclude: string[];
  caseSensitive?: boolean;
  includeDirectories: boolean;
};

/** The reference: which paths of `spec` a query keeps, each tested on its own. */
function expected(spec: TreeSpec, q: Case): string[] {
  const exact = (pattern: string) => q.caseSensitive ?? /[A-Z]/.test(pattern);
  const test = (pattern: string, path: string) =>
    picomatch(pattern, { dot: true, nocase: !exact(pattern), posix: true })(path) ||
    (pattern.endsWith("/**") &&
      picomatch(pattern.slice(0, -3), { dot: true, nocase: !exact(pattern), posix: true })(path));
  const excluded = (path: string) => {
    const parts = path.split("/");
    // The path or a folder above it matches an exclude.
    return parts.some((_, i) => {
      const at = parts.slice(0, i + 1).join("/");
      return q.exclude.some((x) => x.includes("/") ? test(x, at) : test(`**/${x}`, at));
    });
  };
  return Object.keys(spec).filter((path) => {
    const isDir = spec[path]!.kind === "dir";
    if (isDir && !q.includeDirectories) return false;
    if (excluded(path)) return false;
    return q.glob === undefined || test(q.glob, path);
  }).sort();
}

Deno.test({
  name: "smart case and excludes by name: the index, a walk and a reference agree",
  ignore: NO_INDEX || !CASE_KEPT,
  ...sanitize,
  async fn() {
    await fc.assert(
      fc.asyncProperty(TREE, fc.array(CASE, { minLength: 3, maxLength: 6 }), async (spec, qs) => {
        await using tree = await makeTree(spec);
        const index = await readyIndex(tree.root);
        const clock = { now: () => T0 + 100 * DAY };
        try {
          for (const q of qs) {
            const args = { timeField: "modified", ...q };
            const indexed = engine(tree.root, { scanner: index, clock });
            const walked = engine(tree.root, { clock });
            const pages = await pagesOrCode(walked, args);
            assert.deepEqual(
              ...alike(await pagesOrCode(indexed, args), pages),
              JSON.stringify(args),
            );
            const found = (await allPages(walked, args)).flatMap((p) => p.matches)
              .map((m) => m.path).sort();
            assert.deepEqual(found, expected(spec, q), JSON.stringify(args));
          }
        } finally {
          index.close();
        }
      }),
      {
        numRuns: 15,
        examples: [
          // Mixed case in one folder, the exclude naming one spelling of it.
          [{
            "A/a.md": { mtime: T0 },
            "a/A.MD": { mtime: T0 },
            a: { kind: "dir", mtime: T0 },
            A: {
              kind: "dir",
              mtime: T0,
            },
          }, [{
            glob: "**/*.md",
            exclude: ["A"],
            caseSensitive: undefined,
            sort: "path_asc",
            limit: 7,
            includeDirectories: true,
          }]],
        ],
      },
    );
  },
});
