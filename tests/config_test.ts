import assert from "node:assert/strict";
import path from "node:path";
import { ConfigError, DEFAULT_LIMITS, findRoot, loadConfig, type Root } from "../src/config.ts";

/** A fake environment: only the given variables are set. */
function envOf(vars: Record<string, string>): (name: string) => string | undefined {
  return (name) => Object.hasOwn(vars, name) ? vars[name] : undefined;
}

/** Asserts that `fn` throws a ConfigError whose message mentions `variable`. */
function throwsConfig(fn: () => unknown, variable: string): ConfigError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${String(caught)}`);
  assert.ok(caught.message.includes(variable), caught.message);
  assert.ok(!caught.message.includes("\n"), "one line");
  return caught;
}

interface Tree {
  dir: string;
  a: string;
  b: string;
  file: string;
  link: string;
}

/** Runs `fn` with a fresh temp dir holding folders a and b, a file, and a link to a. */
async function withTree(fn: (tree: Tree) => void | Promise<void>): Promise<void> {
  const dir = Deno.realPathSync(await Deno.makeTempDir({ prefix: "fts_config_" }));
  try {
    const tree: Tree = {
      dir,
      a: path.join(dir, "a"),
      b: path.join(dir, "b"),
      file: path.join(dir, "file.txt"),
      link: path.join(dir, "link"),
    };
    Deno.mkdirSync(tree.a);
    Deno.mkdirSync(tree.b);
    Deno.writeTextFileSync(tree.file, "x");
    Deno.symlinkSync(tree.a, tree.link);
    await fn(tree);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("loadConfig() rejects a missing ALLOW_ROOTS", () => {
  throwsConfig(() => loadConfig({ env: envOf({}) }), "ALLOW_ROOTS");
});

Deno.test("loadConfig() rejects an empty ALLOW_ROOTS", () => {
  throwsConfig(() => loadConfig({ env: envOf({ ALLOW_ROOTS: "" }) }), "ALLOW_ROOTS");
  throwsConfig(() => loadConfig({ env: envOf({ ALLOW_ROOTS: "   " }) }), "ALLOW_ROOTS");
});

Deno.test("loadConfig() rejects an ALLOW_ROOTS of only separators", () => {
  for (const raw of [";", ",", ";;,", " ; , ; "]) {
    throwsConfig(() => loadConfig({ env: envOf({ ALLOW_ROOTS: raw }) }), "ALLOW_ROOTS");
  }
});

Deno.test("loadConfig() reads one root as its normalized path and real path", async () => {
  await withTree(({ a }) => {
    const config = loadConfig({ env: envOf({ ALLOW_ROOTS: a }) });
    assert.deepEqual(config.roots, [{ path: a, realPath: a }]);
    assert.deepEqual(config.defaultRoot, { path: a, realPath: a });
  });
});

Deno.test("loadConfig() splits ALLOW_ROOTS on ';' and ',' and trims items", async () => {
  await withTree(({ a, b, dir }) => {
    const config = loadConfig({ env: envOf({ ALLOW_ROOTS: ` ${a} ; ${b} ,${dir}\t,; ` }) });
    assert.deepEqual(config.roots.map((r) => r.path), [a, b, dir]);
  });
});

Deno.test("loadConfig() collapses duplicate roots, keeping the first", async () => {
  await withTree(({ a, b }) => {
    const config = loadConfig({
      env: envOf({ ALLOW_ROOTS: `${a};${b};${a}/;${a}//,${path.join(b, "..", "b")}` }),
    });
    assert.deepEqual(config.roots.map((r) => r.path), [a, b]);
  });
});

Deno.test("loadConfig() removes a trailing separator from a root", async () => {
  await withTree(({ a }) => {
    const config = loadConfig({ env: envOf({ ALLOW_ROOTS: `${a}/` }) });
    assert.equal(config.roots[0]!.path, a);
  });
});

Deno.test("loadConfig() rejects a root that does not exist", async () => {
  await withTree(({ dir }) => {
    const err = throwsConfig(
      () => loadConfig({ env: envOf({ ALLOW_ROOTS: path.join(dir, "missing") }) }),
      "ALLOW_ROOTS",
    );
    assert.match(err.message, /does not exist/);
  });
});

Deno.test("loadConfig() rejects a missing root even after a good one", async () => {
  await withTree(({ a, dir }) => {
    throwsConfig(
      () => loadConfig({ env: envOf({ ALLOW_ROOTS: `${a};${path.join(dir, "missing")}` }) }),
      "ALLOW_ROOTS",
    );
  });
});

Deno.test("loadConfig() rejects a root that is a file", async () => {
  await withTree(({ file }) => {
    const err = throwsConfig(
      () => loadConfig({ env: envOf({ ALLOW_ROOTS: file }) }),
      "ALLOW_ROOTS",
    );
    assert.match(err.message, /not a directory/);
  });
});

Deno.test("loadConfig() keeps a symlinked root's path and resolves its real path", async () => {
  await withTree(({ a, link }) => {
    const config = loadConfig({ env: envOf({ ALLOW_ROOTS: link }) });
    assert.equal(config.roots[0]!.path, link);
    assert.equal(config.roots[0]!.realPath, a);
    assert.notEqual(config.roots[0]!.path, config.roots[0]!.realPath);
  });
});

Deno.test("loadConfig() keeps a symlinked root and its target as two roots", async () => {
  await withTree(({ a, link }) => {
    const config = loadConfig({ env: envOf({ ALLOW_ROOTS: `${a};${link}` }) });
    assert.deepEqual(config.roots, [{ path: a, realPath: a }, { path: link, realPath: a }]);
  });
});

Deno.test("loadConfig() makes the first root the default without DEFAULT_ROOT", async () => {
  await withTree(({ a, b }) => {
    const config = loadConfig({ env: envOf({ ALLOW_ROOTS: `${b};${a}` }) });
    assert.equal(config.defaultRoot.path, b);
    assert.equal(config.defaultRoot, config.roots[0]);
  });
});

Deno.test("loadConfig() treats an empty DEFAULT_ROOT as unset", async () => {
  await withTree(({ a, b }) => {
    const config = loadConfig({ env: envOf({ ALLOW_ROOTS: `${b};${a}`, DEFAULT_ROOT: "" }) });
    assert.equal(config.defaultRoot.path, b);
  });
});

Deno.test("loadConfig() picks DEFAULT_ROOT among the roots", async () => {
  await withTree(({ a, b }) => {
    const config = loadConfig({ env: envOf({ ALLOW_ROOTS: `${a};${b}`, DEFAULT_ROOT: b }) });
    assert.equal(config.defaultRoot.path, b);
    assert.ok(config.roots.includes(config.defaultRoot));
  });
});

Deno.test("loadConfig() picks DEFAULT_ROOT written with a trailing slash", async () => {
  await withTree(({ a, b }) => {
    const config = loadConfig({
      env: envOf({ ALLOW_ROOTS: `${a};${b}`, DEFAULT_ROOT: `${b}/` }),
    });
    assert.equal(config.defaultRoot.path, b);
  });
});

Deno.test("loadConfig() rejects a DEFAULT_ROOT that is not a root", async () => {
  await withTree(({ a, b, dir }) => {
    throwsConfig(
      () => loadConfig({ env: envOf({ ALLOW_ROOTS: a, DEFAULT_ROOT: b }) }),
      "DEFAULT_ROOT",
    );
    // A parent or a child of a root is not that root.
    throwsConfig(
      () => loadConfig({ env: envOf({ ALLOW_ROOTS: a, DEFAULT_ROOT: dir }) }),
      "DEFAULT_ROOT",
    );
    throwsConfig(
      () => loadConfig({ env: envOf({ ALLOW_ROOTS: dir, DEFAULT_ROOT: a }) }),
      "DEFAULT_ROOT",
    );
  });
});

Deno.test("loadConfig() uses the documented defaults for unset limits", async () => {
  await withTree(({ a }) => {
    const config = loadConfig({ env: envOf({ ALLOW_ROOTS: a }) });
    assert.deepEqual(config.limits, {
      maxFilesScanned: 2_000_000,
      maxDirectoriesScanned: 500_000,
      scanTimeoutMs: 15_000,
      maxDepth: 256,
      onLimit: "partial",
    });
    assert.deepEqual(config.limits, { ...DEFAULT_LIMITS });
  });
});

Deno.test("loadConfig() parses integer settings", async () => {
  await withTree(({ a }) => {
    const config = loadConfig({
      env: envOf({
        ALLOW_ROOTS: a,
        MAX_FILES_SCANNED: "10",
        MAX_DIRECTORIES_SCANNED: " 20 ",
        SCAN_TIMEOUT_MS: "30",
        MAX_DEPTH: "4",
        ON_LIMIT: "error",
      }),
    });
    assert.deepEqual(config.limits, {
      maxFilesScanned: 10,
      maxDirectoriesScanned: 20,
      scanTimeoutMs: 30,
      maxDepth: 4,
      onLimit: "error",
    });
  });
});

Deno.test("loadConfig() rejects MAX_FILES_SCANNED that is not a whole number >= 1", async () => {
  await withTree(({ a }) => {
    for (const raw of ["abc", "-1", "1.5", "0", "1e3", "0x10", "+5", "99999999999999999999"]) {
      throwsConfig(
        () => loadConfig({ env: envOf({ ALLOW_ROOTS: a, MAX_FILES_SCANNED: raw }) }),
        "MAX_FILES_SCANNED",
      );
    }
  });
});

Deno.test("loadConfig() rejects bad MAX_DIRECTORIES_SCANNED and SCAN_TIMEOUT_MS", async () => {
  await withTree(({ a }) => {
    for (const name of ["MAX_DIRECTORIES_SCANNED", "SCAN_TIMEOUT_MS"]) {
      for (const raw of ["abc", "0", "-1", "2.5"]) {
        throwsConfig(() => loadConfig({ env: envOf({ ALLOW_ROOTS: a, [name]: raw }) }), name);
      }
    }
  });
});

Deno.test("loadConfig() accepts MAX_DEPTH 0", async () => {
  await withTree(({ a }) => {
    const config = loadConfig({ env: envOf({ ALLOW_ROOTS: a, MAX_DEPTH: "0" }) });
    assert.equal(config.limits.maxDepth, 0);
  });
});

Deno.test("loadConfig() rejects a negative or fractional MAX_DEPTH", async () => {
  await withTree(({ a }) => {
    for (const raw of ["-1", "1.5", "abc"]) {
      throwsConfig(
        () => loadConfig({ env: envOf({ ALLOW_ROOTS: a, MAX_DEPTH: raw }) }),
        "MAX_DEPTH",
      );
    }
  });
});

Deno.test("loadConfig() reads ON_LIMIT partial and error and rejects anything else", async () => {
  await withTree(({ a }) => {
    const partial = loadConfig({ env: envOf({ ALLOW_ROOTS: a, ON_LIMIT: "partial" }) });
    assert.equal(partial.limits.onLimit, "partial");
    const error = loadConfig({ env: envOf({ ALLOW_ROOTS: a, ON_LIMIT: "error" }) });
    assert.equal(error.limits.onLimit, "error");
    for (const raw of ["stop", "fail", "partial,error"]) {
      throwsConfig(
        () => loadConfig({ env: envOf({ ALLOW_ROOTS: a, ON_LIMIT: raw }) }),
        "ON_LIMIT",
      );
    }
  });
});

Deno.test("loadConfig() with win32 rules collapses roots that differ only in case", () => {
  const config = loadConfig({
    env: envOf({ ALLOW_ROOTS: "C:\\Data;c:\\data\\,D:\\Other", DEFAULT_ROOT: "d:/other/" }),
    rules: path.win32,
    isDirectory: () => true,
    realPath: (p) => p,
  });
  assert.deepEqual(config.roots.map((r) => r.path), ["C:\\Data", "D:\\Other"]);
  assert.equal(config.defaultRoot.path, "D:\\Other");
});

const ROOTS: Root[] = [
  { path: "/srv/docs", realPath: "/data/docs" },
  { path: "/home/me", realPath: "/home/me" },
];

Deno.test("findRoot() finds a root by its exact path", () => {
  assert.equal(findRoot(ROOTS, "/srv/docs", path.posix), ROOTS[0]);
  assert.equal(findRoot(ROOTS, "/home/me", path.posix), ROOTS[1]);
});

Deno.test("findRoot() matches a root written with a trailing slash", () => {
  assert.equal(findRoot(ROOTS, "/srv/docs/", path.posix), ROOTS[0]);
  assert.equal(findRoot(ROOTS, "/srv/docs//", path.posix), ROOTS[0]);
});

Deno.test("findRoot() returns undefined for a relative candidate", () => {
  assert.equal(findRoot(ROOTS, "srv/docs", path.posix), undefined);
  assert.equal(findRoot(ROOTS, "docs", path.posix), undefined);
  assert.equal(findRoot(ROOTS, ".", path.posix), undefined);
});

Deno.test("findRoot() does not treat a subfolder, parent or sibling as a root", () => {
  assert.equal(findRoot(ROOTS, "/srv/docs/sub", path.posix), undefined);
  assert.equal(findRoot(ROOTS, "/srv", path.posix), undefined);
  assert.equal(findRoot(ROOTS, "/srv/docs2", path.posix), undefined);
});

Deno.test("findRoot() does not match a root by its real path", () => {
  assert.equal(findRoot(ROOTS, "/data/docs", path.posix), undefined);
});

Deno.test("findRoot() is case-sensitive on posix and case-insensitive on win32", () => {
  assert.equal(findRoot(ROOTS, "/SRV/docs", path.posix), undefined);
  const winRoots: Root[] = [{ path: "C:\\Data", realPath: "C:\\Data" }];
  assert.equal(findRoot(winRoots, "c:\\data\\", path.win32), winRoots[0]);
  assert.equal(findRoot(winRoots, "C:/DATA", path.win32), winRoots[0]);
  assert.equal(findRoot(winRoots, "data", path.win32), undefined);
});

Deno.test("loadConfig() reads INDEX and INDEX_MAX_ENTRIES and rejects anything else", () => {
  const root = Deno.makeTempDirSync({ prefix: "fts-config-" });
  try {
    const load = (env: Record<string, string>) =>
      loadConfig({ env: (name) => ({ ALLOW_ROOTS: root, ...env })[name] });
    assert.deepEqual(load({}).index, { mode: "on", maxEntries: 5_000_000 });
    assert.deepEqual(load({ INDEX: "off", INDEX_MAX_ENTRIES: "10" }).index, {
      mode: "off",
      maxEntries: 10,
    });
    assert.equal(load({ INDEX: "lazy" }).index.mode, "lazy");
    assert.throws(() => load({ INDEX: "yes" }), /INDEX must be 'on', 'lazy' or 'off', not 'yes'/);
    assert.throws(
      () => load({ INDEX_MAX_ENTRIES: "0" }),
      /INDEX_MAX_ENTRIES must be a whole number >= 1/,
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
