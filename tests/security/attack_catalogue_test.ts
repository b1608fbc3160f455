/**
 * The attack catalogue: each known way out of a root, tried against a real tree.
 * In the spirit of the MCP reference filesystem server's path-validation tests, but
 * through the whole search (arguments, realpath checks, walk).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { type ErrorCode, ToolError } from "../../src/errors.ts";
import { denoFs, type FsPort } from "../../src/ports/fs.ts";
import { engine } from "../helpers/engine.ts";
import { makeTree, T0, type TempTree } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";

/** A root with siblings that share its prefix, a secret outside, and links out of it. */
async function world(): Promise<{ base: string; root: TempTree; dispose(): Promise<void> }> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "fts-world-" }));
  const at = (rel: string) => path.join(base, rel);
  for (const sibling of ["root2", "root-old", "root.bak", "outside"]) {
    await Deno.mkdir(at(sibling));
    await Deno.writeTextFile(at(`${sibling}/SECRET-${sibling}.txt`), "secret");
  }
  await Deno.mkdir(at("root/docs"), { recursive: true });
  await Deno.writeTextFile(at("root/docs/a.md"), "a");
  await Deno.symlink(at("outside"), at("root/link-out"));
  await Deno.symlink(at("root/chain-2"), at("root/chain-1"));
  await Deno.symlink(at("outside"), at("root/chain-2"));
  await Deno.symlink(at("root/loop-b"), at("root/loop-a"));
  await Deno.symlink(at("root/loop-a"), at("root/loop-b"));
  await Deno.symlink("../../outside/SECRET-outside.txt", at("root/docs/file-link-out"));
  const root = {
    root: at("root"),
    abs: (rel: string) => path.join(at("root"), rel),
    dispose: async () => {},
    [Symbol.asyncDispose]: async () => {},
  };
  return { base, root, dispose: () => Deno.remove(base, { recursive: true }) };
}

async function expectCode(
  promise: Promise<unknown>,
  code: ErrorCode,
  label: string,
): Promise<void> {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof ToolError, `${label}: ${err}`);
    assert.equal(err.code, code, `${label}: ${err.message}`);
    return true;
  });
}

Deno.test("attack: sibling roots that share a prefix are not the root", async () => {
  const w = await world();
  try {
    const e = engine(w.root.root);
    for (const sibling of ["root2", "root-old", "root.bak", "root/../root2", "root/", "ROOT"]) {
      const candidate = path.join(w.base, sibling);
      const args = { timeField: "modified", root: candidate };
      if (path.resolve(candidate) === w.root.root) {
        assert.ok((await e.search(args)).matches.length > 0, sibling);
      } else {
        await expectCode(e.search(args), "RootNotAllowed", sibling);
      }
    }
  } finally {
    await w.dispose();
  }
});

Deno.test("attack: '..' in every position stays inside or is refused", async () => {
  const w = await world();
  try {
    const e = engine(w.root.root);
    const refused = [
      "..",
      "../",
      "../outside",
      "docs/../..",
      "docs/../../outside",
      "./..",
      "docs/./../../x",
    ];
    for (const p of refused) {
      await expectCode(e.search({ timeField: "modified", path: p }), "PathTraversalDetected", p);
      await expectCode(
        e.search({ timeField: "modified", path: p.replaceAll("/", "\\") }),
        "PathTraversalDetected",
        p,
      );
    }
    const inside = await e.search({
      timeField: "modified",
      path: "docs/../docs/./",
      sort: "path_asc",
    });
    assert.deepEqual(inside.matches.map((m) => m.path), ["docs/a.md", "docs/file-link-out"]);
  } finally {
    await w.dispose();
  }
});

Deno.test("attack: encoded and look-alike dots are names, never traversal", async () => {
  const w = await world();
  try {
    const e = engine(w.root.root);
    for (
      const p of [
        "%2e%2e",
        "%2e%2e/outside",
        "..%2f",
        "．．",
        "．．/outside",
        "%252e%252e",
        "\u2024\u2024",
      ]
    ) {
      await expectCode(e.search({ timeField: "modified", path: p }), "PathNotFound", p);
    }
    for (const p of ["...", ".. ", ". .", "docs/.. ", "docs/...", " ", "docs/ "]) {
      await expectCode(e.search({ timeField: "modified", path: p }), "PathTraversalDetected", p);
    }
  } finally {
    await w.dispose();
  }
});

Deno.test("attack: NUL bytes, and very long or very deep paths", async () => {
  const w = await world();
  try {
    const e = engine(w.root.root);
    for (const field of ["path", "glob", "root", "cursor", "from"]) {
      await expectCode(
        e.search({ timeField: "modified", [field]: "docs\u0000/../../x" }),
        "InvalidArgument",
        field,
      );
    }
    await expectCode(
      e.search({ timeField: "modified", path: "a/".repeat(2049) }),
      "PathTooLong",
      "long",
    );
    await expectCode(
      e.search({ timeField: "modified", path: "a/".repeat(2000) }),
      "PathNotFound",
      "deep but short enough",
    );
    await expectCode(
      e.search({ timeField: "modified", path: "../".repeat(1000) }),
      "PathTraversalDetected",
      "deep traversal",
    );
  } finally {
    await w.dispose();
  }
});

Deno.test("attack: absolute, drive, UNC and device forms are refused on every OS", async () => {
  const w = await world();
  try {
    const e = engine(w.root.root);
    const forms = [
      path.join(w.base, "outside"),
      "/etc/passwd",
      "\\etc",
      "C:",
      "C:\\Windows",
      "C:Windows",
      "c:/windows",
      "\\\\server\\share\\x",
      "//server/share/x",
      "\\\\?\\C:\\x",
      "\\\\.\\pipe\\x",
      "//?/C:/x",
    ];
    for (const p of forms) {
      await expectCode(e.search({ timeField: "modified", path: p }), "PathNotRelative", p);
    }
    for (const root of ["C:\\", "\\\\server\\share", "relative/root", "."]) {
      await expectCode(e.search({ timeField: "modified", root }), "RootNotAllowed", root);
    }
  } finally {
    await w.dispose();
  }
});

Deno.test("attack: quotes and whitespace are kept as typed, never trimmed", async () => {
  const w = await world();
  try {
    const e = engine(w.root.root);
    for (const p of [" docs", "docs ", "'docs'", '"docs"', "docs\t", "\ndocs"]) {
      await expectCode(
        e.search({ timeField: "modified", path: p }),
        "PathNotFound",
        JSON.stringify(p),
      );
    }
    for (const root of [` ${w.root.root}`, `"${w.root.root}"`]) {
      await expectCode(e.search({ timeField: "modified", root }), "RootNotAllowed", root);
    }
  } finally {
    await w.dispose();
  }
});

Deno.test("attack: NFC and NFD spellings of a name are different names", async () => {
  await using tree = await makeTree({ "caf\u00e9/menu.md": { mtime: T0 } });
  const e = engine(tree.root);
  const nfc = await e.search({ timeField: "modified", path: "caf\u00e9" });
  assert.deepEqual(nfc.matches.map((m) => m.path), ["caf\u00e9/menu.md"]);
  const onDisk = [...Deno.readDirSync(tree.root)].map((d) => d.name);
  if (onDisk.includes("cafe\u0301")) return; // a normalizing file system (macOS): nothing to tell apart
  await expectCode(e.search({ timeField: "modified", path: "cafe\u0301" }), "PathNotFound", "NFD");
  const byGlob = await e.search({ timeField: "modified", glob: "cafe\u0301/**" });
  assert.deepEqual(byGlob.matches, []);
});

Deno.test("attack: a root that is itself a symlink is searched through its real path", async () => {
  await using tree = await makeTree({ "real/docs/a.md": { mtime: T0 } });
  await Deno.symlink(tree.abs("real"), tree.abs("alias"));
  const e = engine(tree.abs("alias"));
  assert.equal(e.config.roots[0]!.path, tree.abs("alias"));
  assert.equal(e.config.roots[0]!.realPath, tree.abs("real"));
  const out = await e.search({ timeField: "modified", path: "docs" });
  assert.deepEqual(out.matches.map((m) => m.path), ["docs/a.md"]);
  await expectCode(
    e.search({ timeField: "modified", path: "../real" }),
    "PathTraversalDetected",
    "up",
  );
});

Deno.test("attack: links out of the root, chains and loops are listed, never followed", async () => {
  const w = await world();
  try {
    const e = engine(w.root.root);
    // Through a link out of the root (a component before the last): refused.
    for (const p of ["link-out/SECRET-outside.txt", "chain-1/x", "chain-2/x", "link-out/x/y"]) {
      await expectCode(e.search({ timeField: "modified", path: p }), "SymlinkEscapeDetected", p);
    }
    await expectCode(e.search({ timeField: "modified", path: "loop-a/x" }), "PathNotFound", "loop");
    // A link as the last component is the start itself: listed as a file, never followed.
    for (const p of ["link-out", "chain-1", "chain-2", "docs/file-link-out", "loop-a"]) {
      const one = await e.search({ timeField: "modified", path: p, includeDirectories: true });
      assert.deepEqual(one.matches.map((m) => [m.path, m.isDirectory]), [[p, false]], p);
    }
    const all = await e.search({
      timeField: "modified",
      includeDirectories: true,
      sort: "path_asc",
    });
    assert.deepEqual(all.matches.map((m) => m.path), [
      "chain-1",
      "chain-2",
      "docs",
      "docs/a.md",
      "docs/file-link-out",
      "link-out",
      "loop-a",
      "loop-b",
    ]);
    for (const m of all.matches) assert.ok(!m.path.includes("SECRET"), m.path);
    assert.deepEqual(
      all.matches.filter((m) => m.isDirectory).map((m) => m.path),
      ["docs"],
      "links are reported as files",
    );
  } finally {
    await w.dispose();
  }
});

Deno.test("attack: a directory swapped for a link mid-scan is skipped, not read", async () => {
  await using tree = await makeTree({ "a/x.txt": { mtime: T0 }, "b/y.txt": { mtime: T0 } });
  await using outside = await makeTree({ "SECRET.txt": { mtime: T0 } }, "fts-outside-");
  // After the root is listed, "b" is replaced by a link to outside: the port answers as
  // the real file system would after the swap.
  const swapped = tree.abs("b");
  const reads: string[] = [];
  const fs: FsPort = {
    ...denoFs,
    realPath: (p) => p === swapped ? outside.root : denoFs.realPath(p),
    readDir: (p) => {
      reads.push(p);
      return denoFs.readDir(p === swapped ? outside.root : p);
    },
  };
  const out = await engine(tree.root, { fs }).search({ timeField: "modified", sort: "path_asc" });
  assert.deepEqual(out.matches.map((m) => m.path), ["a/x.txt"]);
  assert.equal(out.stats.skipped, 1);
  assert.ok(!reads.includes(swapped), "the swapped directory was never listed");
});

Deno.test({
  name: "attack: FIFOs and sockets are listed, never opened, and never block the scan",
  ignore: Deno.build.os === "windows",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "a.txt": { mtime: T0 } });
    const mkfifo = await new Deno.Command("mkfifo", { args: [tree.abs("pipe")] }).output();
    assert.ok(mkfifo.success, "mkfifo");
    // A bound Unix socket stays on disk after its process exits.
    const bind = "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])";
    const sock = await new Deno.Command("python3", { args: ["-c", bind, tree.abs("sock")] })
      .output();
    assert.ok(sock.success, "made a Unix socket");
    const out = await engine(tree.root).search({ timeField: "modified", sort: "path_asc" });
    assert.deepEqual(out.matches.map((m) => [m.path, m.isDirectory]), [
      ["a.txt", false],
      ["pipe", false],
      ["sock", false],
    ]);
  },
});

Deno.test({
  name: "attack: unreadable directories are skipped and counted",
  ignore: Deno.build.os === "windows" || Deno.uid() === 0, // root reads everything; see the fault-seam e2e test
  async fn() {
    await using tree = await makeTree({
      "open/a.txt": { mtime: T0 },
      "closed/b.txt": { mtime: T0 },
    });
    await Deno.chmod(tree.abs("closed"), 0o000);
    try {
      const out = await engine(tree.root).search({ timeField: "modified" });
      assert.deepEqual(out.matches.map((m) => m.path), ["open/a.txt"]);
      assert.equal(out.stats.skipped, 1);
    } finally {
      await Deno.chmod(tree.abs("closed"), 0o755);
    }
  },
});

Deno.test({
  name: "attack: undecodable file names are skipped and counted",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using tree = await makeTree({ "ok.txt": { mtime: T0 } });
    const made = await new Deno.Command("sh", {
      args: ["-c", `touch "$(printf '%s/bad\\377\\376name' "$1")"`, "sh", tree.root],
    }).output();
    assert.ok(made.success, "created a name that is not UTF-8");
    const out = await engine(tree.root).search({ timeField: "modified" });
    assert.deepEqual(out.matches.map((m) => m.path), ["ok.txt"]);
    assert.equal(out.stats.skipped, 1);
    assert.equal(out.stats.scannedFiles, 1); // left out with its listing (contract §6), not examined
  },
});
