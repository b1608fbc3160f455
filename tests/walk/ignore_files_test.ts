/**
 * Ignore files with git's semantics (contract §17), against git itself: random work trees
 * with nested .gitignore files and a .git/info/exclude; `respectIgnoreFiles: true` must
 * list exactly what `git ls-files --cached --others --exclude-standard` lists. Then
 * `.ignore` on top, and `exclude` globs, on fixed trees.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { allPages, engine } from "../helpers/engine.ts";
import { makeTree, T0, type TreeSpec } from "../helpers/tree.ts";

const FOLDERS = ["a", "b", "build", "docs", "sub", "tmp", "node_modules", ".cache"];
const FILES = [
  "x.log",
  "keep.log",
  "main.o",
  "important.o",
  "readme.md",
  "notes.md",
  "root.txt",
  "abc.txt",
  "#hash",
  "!bang",
  "[ab].txt",
  "a.txt",
  "keep",
];
const PATTERNS = [
  "*.log",
  "!keep.log",
  "build/",
  "/root.txt",
  "**/tmp",
  "docs/**/*.md",
  "\\#hash",
  "\\!bang",
  "*.o",
  "!important.o",
  "a?c.txt",
  "sub/",
  "/sub",
  "node_modules",
  "!node_modules/keep",
  "*.md",
  "!readme.md",
  "b/*",
  "!b/keep.log",
  "**/a/**",
  "# a comment",
  "",
  "x.log/",
  "\\[ab\\].txt",
  ".cache/",
  "*",
  "!*.txt",
  "!*/",
];

const folderPath = fc.array(fc.constantFrom(...FOLDERS), { maxLength: 3 }).map((p) => p.join("/"));
/** The folders that hold `files`, the root (`""`) included. */
function foldersOf(files: string[]): string[] {
  const folders = new Set([""]);
  for (const f of files) {
    const parts = f.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  return [...folders];
}

const treeArb = fc.uniqueArray(
  fc.tuple(folderPath, fc.constantFrom(...FILES)).map(([d, f]) => d === "" ? f : `${d}/${f}`),
  { minLength: 1, maxLength: 25 },
).chain((files) =>
  fc.record({
    files: fc.constant(files),
    // Ignore files where the files are (nested ones matter only there), and a few elsewhere.
    ignores: fc.array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...foldersOf(files)), folderPath),
        fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 5 }),
      ),
      { maxLength: 6 },
    ),
    infoExclude: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 3 }),
  })
);

/** A folder that is a prefix of a file cannot also be a file: keep files whose folders are free. */
function consistent(files: string[]): string[] {
  const all = new Set(files);
  return files.filter((f) => ![...all].some((g) => g.startsWith(f + "/")));
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "fts-git-home-" });
  try {
    const out = await new Deno.Command("git", {
      args,
      cwd,
      env: {
        HOME: home,
        XDG_CONFIG_HOME: home,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

async function ourFiles(root: string, args: Record<string, unknown> = {}): Promise<string[]> {
  const pages = await allPages(engine(root), {
    timeField: "modified",
    sort: "path_asc",
    limit: 1000,
    respectIgnoreFiles: true,
    ...args,
  });
  return pages.flatMap((p) => p.matches.map((m) => m.path));
}

Deno.test({
  name: "respectIgnoreFiles lists exactly what git ls-files --others --exclude-standard lists",
  ignore: Deno.build.os === "windows",
  async fn() {
    await fc.assert(
      fc.asyncProperty(treeArb, async ({ files, ignores, infoExclude }) => {
        const spec: TreeSpec = {};
        for (const f of consistent(files)) spec[f] = { mtime: T0 };
        for (const [dir, lines] of ignores) {
          const at = dir === "" ? ".gitignore" : `${dir}/.gitignore`;
          if (Object.keys(spec).some((f) => f === dir || dir.startsWith(f + "/"))) continue;
          spec[at] = { mtime: T0, content: lines.join("\n") + "\n" };
        }
        await using tree = await makeTree(spec);
        await git(tree.root, "init", "-q");
        await Deno.writeTextFile(tree.abs(".git/info/exclude"), infoExclude.join("\n") + "\n");
        const expected = (await git(
          tree.root,
          "ls-files",
          "-z",
          "--cached",
          "--others",
          "--exclude-standard",
        )).split("\0").filter((p) => p !== "").sort();
        assert.deepEqual(await ourFiles(tree.root), expected);
      }),
      { numRuns: 60 },
    );
  },
});

Deno.test({
  name: "respectIgnoreFiles: nested anchored, folder-only and negated patterns, as git has them",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using tree = await makeTree({
      "deep/.gitignore": { content: "/root.txt\ndocs/**/*.md\nout/\n!keep/\n*.tmp\n" },
      "deep/root.txt": { mtime: T0 },
      "deep/x/root.txt": { mtime: T0 },
      "root.txt": { mtime: T0 },
      "deep/docs/a/b.md": { mtime: T0 },
      "deep/x/docs/a/b.md": { mtime: T0 },
      "docs/a/b.md": { mtime: T0 },
      "deep/x/out/o.js": { mtime: T0 },
      "out/o.js": { mtime: T0 },
      "deep/a.tmp": { mtime: T0 },
      "a.tmp": { mtime: T0 },
      "deep/x/.gitignore": { content: "!a.tmp\n" },
      "deep/x/a.tmp": { mtime: T0 },
    });
    await git(tree.root, "init", "-q");
    const expected = (await git(tree.root, "ls-files", "-z", "--others", "--exclude-standard"))
      .split("\0").filter((p) => p !== "").sort();
    assert.ok(expected.includes("deep/x/root.txt") && !expected.includes("deep/root.txt"));
    assert.deepEqual(await ourFiles(tree.root), expected);
  },
});

Deno.test("respectIgnoreFiles: .ignore ranks above .gitignore, deeper files above shallower", async () => {
  await using tree = await makeTree({
    ".gitignore": { content: "*.log\nsecret/\n" },
    ".ignore": { content: "!keep.log\n" },
    "keep.log": { mtime: T0 },
    "drop.log": { mtime: T0 },
    "secret/x.txt": { mtime: T0 },
    "deep/.gitignore": { content: "!*.log\n" },
    "deep/kept.log": { mtime: T0 },
    "deep/.ignore": { content: "kept.log\n" },
    "deep/other.log": { mtime: T0 },
    ".git/HEAD": { content: "ref: refs/heads/main\n" },
  });
  assert.deepEqual(await ourFiles(tree.root), [
    ".gitignore",
    ".ignore",
    "deep/.gitignore",
    "deep/.ignore",
    "deep/other.log",
    "keep.log",
  ]);
  // Without the option, everything is listed, .git's contents too when asked for (§27).
  const all = await ourFiles(tree.root, { respectIgnoreFiles: false, includeVcs: true });
  assert.ok(all.includes(".git/HEAD") && all.includes("drop.log") && all.includes("secret/x.txt"));
});

Deno.test("respectIgnoreFiles applies the root's rules to a start path below it", async () => {
  await using tree = await makeTree({
    ".gitignore": { content: "*.log\nbuild/\n" },
    "src/a.ts": { mtime: T0 },
    "src/a.log": { mtime: T0 },
    "src/build/out.js": { mtime: T0 },
  });
  assert.deepEqual(await ourFiles(tree.root, { path: "src" }), ["src/a.ts"]);
  assert.deepEqual(await ourFiles(tree.root, { path: "src/build" }), []);
});

Deno.test("respectIgnoreFiles never reads an ignore file through a link or from a FIFO", async () => {
  await using outside = await makeTree({ "rules": { content: "*\n" } }, "fts-outside-");
  await using tree = await makeTree({ "a.txt": { mtime: T0 }, "d/b.txt": { mtime: T0 } });
  await Deno.symlink(outside.abs("rules"), tree.abs(".gitignore"));
  if (Deno.build.os !== "windows") {
    await new Deno.Command("mkfifo", { args: [tree.abs("d/.gitignore")] }).output();
  }
  const files = await ourFiles(tree.root);
  assert.ok(files.includes("a.txt") && files.includes("d/b.txt"), files.join());
});

Deno.test("exclude: globs leave entries out and prune folders, counted once", async () => {
  await using tree = await makeTree({
    "src/a.ts": { mtime: T0 },
    "src/a.tmp": { mtime: T0 },
    "node_modules/x/index.js": { mtime: T0 },
    "node_modules/y/index.js": { mtime: T0 },
    "pkg/node_modules/z.js": { mtime: T0 },
  });
  const e = engine(tree.root);
  const out = await e.search({
    timeField: "modified",
    sort: "path_asc",
    includeDirectories: true,
    exclude: ["**/node_modules", "**/*.tmp"],
  });
  assert.deepEqual(out.matches.map((m) => m.path), ["pkg", "src", "src/a.ts"]);
  assert.equal((out.stats as { excluded?: number }).excluded, 3);
  // A folder that is excluded is never listed: its contents do not count as scanned.
  assert.equal(out.stats.scannedDirectories, 3);
});
