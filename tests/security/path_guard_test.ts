import assert from "node:assert/strict";
import path from "node:path";
import fc from "npm:fast-check@4.10.2";
import { comparisonKey, isWithin, normalizeAbsolute } from "../../src/security/path_guard.ts";

const { posix, win32 } = path;

Deno.test("isWithin() accepts a child", () => {
  assert.equal(isWithin("/allowed", "/allowed/a", posix), true);
  assert.equal(isWithin("/allowed", "/allowed/a/b/c.txt", posix), true);
  assert.equal(isWithin("C:\\Data", "C:\\Data\\x\\y", win32), true);
});

Deno.test("isWithin() accepts the parent itself", () => {
  assert.equal(isWithin("/allowed", "/allowed", posix), true);
  assert.equal(isWithin("/allowed", "/allowed/", posix), true);
  assert.equal(isWithin("C:\\Data", "C:\\Data", win32), true);
});

Deno.test("isWithin() rejects a sibling with the same prefix", () => {
  for (const sibling of ["/allowed_evil", "/allowed2", "/allowed-old", "/allowed.bak"]) {
    assert.equal(isWithin("/allowed", sibling, posix), false, sibling);
    assert.equal(isWithin("/allowed", `${sibling}/x`, posix), false, `${sibling}/x`);
  }
  for (const sibling of ["/root2", "/root-old", "/root.bak"]) {
    assert.equal(isWithin("/root", sibling, posix), false, sibling);
  }
  assert.equal(isWithin("C:\\Data", "C:\\Data_evil\\x", win32), false);
  assert.equal(isWithin("C:\\Data", "C:\\Data2", win32), false);
});

Deno.test("isWithin() rejects the parent's parent and unrelated paths", () => {
  assert.equal(isWithin("/allowed/sub", "/allowed", posix), false);
  assert.equal(isWithin("/allowed", "/", posix), false);
  assert.equal(isWithin("/allowed", "/etc/passwd", posix), false);
  assert.equal(isWithin("C:\\Data\\sub", "C:\\Data", win32), false);
});

Deno.test("isWithin() is not fooled by '..' inside the child", () => {
  assert.equal(isWithin("/allowed", "/allowed/../etc", posix), false);
  assert.equal(isWithin("/allowed", "/allowed/a/../../allowed_evil", posix), false);
  assert.equal(isWithin("/allowed", "/allowed/a/../b", posix), true);
});

Deno.test("isWithin() accepts a child whose name starts with '..'", () => {
  assert.equal(isWithin("/allowed", "/allowed/..foo", posix), true);
  assert.equal(isWithin("/allowed", "/allowed/...", posix), true);
  assert.equal(isWithin("C:\\Data", "C:\\Data\\..foo", win32), true);
});

Deno.test("isWithin() on posix is case-sensitive", () => {
  assert.equal(isWithin("/Data", "/data/x", posix), false);
});

Deno.test("isWithin() on win32 ignores the case of drive and folders", () => {
  assert.equal(isWithin("C:\\Data", "c:\\data\\x", win32), true);
  assert.equal(isWithin("c:\\data", "C:\\DATA\\X", win32), true);
  assert.equal(isWithin("C:\\Data", "c:\\data", win32), true);
});

Deno.test("isWithin() on win32 accepts forward slashes", () => {
  assert.equal(isWithin("C:\\Data", "C:/Data/x", win32), true);
  assert.equal(isWithin("C:\\Data", "C:/Data_evil/x", win32), false);
});

Deno.test("isWithin() on win32 rejects another drive", () => {
  assert.equal(isWithin("C:\\Data", "D:\\Data\\x", win32), false);
  assert.equal(isWithin("C:\\Data", "D:\\Data", win32), false);
  assert.equal(isWithin("C:\\", "D:\\", win32), false);
});

Deno.test("isWithin() on win32 contains paths within a UNC share only", () => {
  assert.equal(isWithin("\\\\server\\share", "\\\\server\\share\\x\\y", win32), true);
  assert.equal(isWithin("\\\\server\\share", "\\\\SERVER\\Share\\x", win32), true);
  assert.equal(isWithin("\\\\server\\share\\dir", "\\\\server\\share\\dir\\x", win32), true);
  assert.equal(isWithin("\\\\server\\share", "\\\\server\\other\\x", win32), false);
  assert.equal(isWithin("\\\\server\\share", "\\\\other\\share\\x", win32), false);
  assert.equal(isWithin("\\\\server\\share\\dir", "\\\\server\\share\\dir2", win32), false);
  assert.equal(isWithin("C:\\Data", "\\\\server\\share\\Data", win32), false);
});

Deno.test("isWithin() accepts everything below a file-system root", () => {
  assert.equal(isWithin("/", "/etc", posix), true);
  assert.equal(isWithin("/", "/", posix), true);
  assert.equal(isWithin("C:\\", "C:\\x\\y", win32), true);
  assert.equal(isWithin("C:\\", "c:\\", win32), true);
});

Deno.test("normalizeAbsolute() removes trailing separators", () => {
  assert.equal(normalizeAbsolute("/srv/docs/", posix), "/srv/docs");
  assert.equal(normalizeAbsolute("/srv/docs///", posix), "/srv/docs");
  assert.equal(normalizeAbsolute("C:\\Data\\", win32), "C:\\Data");
  assert.equal(normalizeAbsolute("C:\\Data\\\\", win32), "C:\\Data");
  assert.equal(normalizeAbsolute("C:/Data/", win32), "C:\\Data");
});

Deno.test("normalizeAbsolute() resolves '.' and '..' and repeated separators", () => {
  assert.equal(normalizeAbsolute("/srv/./docs/../files//x", posix), "/srv/files/x");
  assert.equal(normalizeAbsolute("C:\\a\\.\\b\\..\\c", win32), "C:\\a\\c");
});

Deno.test("normalizeAbsolute() keeps the case of the input", () => {
  assert.equal(normalizeAbsolute("c:\\Data\\", win32), "c:\\Data");
  assert.equal(normalizeAbsolute("/Srv/Docs", posix), "/Srv/Docs");
});

Deno.test("normalizeAbsolute() keeps '/' as '/'", () => {
  assert.equal(normalizeAbsolute("/", posix), "/");
  assert.equal(normalizeAbsolute("//", posix), "/");
  assert.equal(normalizeAbsolute("/..", posix), "/");
});

Deno.test("normalizeAbsolute() keeps 'C:\\' as 'C:\\'", () => {
  assert.equal(normalizeAbsolute("C:\\", win32), "C:\\");
  assert.equal(normalizeAbsolute("C:/", win32), "C:\\");
  assert.equal(normalizeAbsolute("C:\\..", win32), "C:\\");
});

Deno.test("normalizeAbsolute() keeps a UNC share root whole", () => {
  // Like "C:\\", the share root is the file-system root and keeps its one separator.
  assert.equal(normalizeAbsolute("\\\\server\\share\\", win32), "\\\\server\\share\\");
  assert.equal(normalizeAbsolute("\\\\server\\share", win32), "\\\\server\\share\\");
  assert.equal(normalizeAbsolute("//server/share/", win32), "\\\\server\\share\\");
  assert.equal(normalizeAbsolute("\\\\server\\share\\dir\\", win32), "\\\\server\\share\\dir");
});

Deno.test("normalizeAbsolute() makes a relative path absolute", () => {
  const out = normalizeAbsolute("some/rel/", posix);
  assert.equal(posix.isAbsolute(out), true);
  assert.ok(out.endsWith("/some/rel"), out);
});

Deno.test("comparisonKey() is the path itself on posix", () => {
  assert.equal(comparisonKey("/Srv/Docs", posix), "/Srv/Docs");
  assert.notEqual(comparisonKey("/Srv/Docs", posix), comparisonKey("/srv/docs", posix));
});

Deno.test("comparisonKey() ignores case on win32", () => {
  assert.equal(comparisonKey("C:\\Data", win32), comparisonKey("c:\\data", win32));
  assert.equal(
    comparisonKey(normalizeAbsolute("C:\\Data\\", win32), win32),
    comparisonKey(normalizeAbsolute("c:/DATA", win32), win32),
  );
  assert.notEqual(comparisonKey("C:\\Data", win32), comparisonKey("C:\\Data2", win32));
});

Deno.test("isWithin() on posix answers as path.relative does, shortcut or not", () => {
  // The shortcut for plain paths (no '.', '..' or empty segment below the parent) must never
  // say yes where path.relative says no: random paths full of such segments.
  const byRelative = (parent: string, child: string) => {
    const rel = posix.relative(parent, child);
    return rel === "" || (rel !== ".." && !rel.startsWith("../") && !posix.isAbsolute(rel));
  };
  const segment = fc.constantFrom("a", "b", ".", "..", "", "..a", ".a", "a.");
  const absolute = fc.array(segment, { maxLength: 5 }).map((s) => "/" + s.join("/"));
  fc.assert(
    fc.property(absolute, fc.array(segment, { maxLength: 5 }), (parent, below) => {
      for (const child of [parent + "/" + below.join("/"), "/a/" + below.join("/")]) {
        assert.equal(
          isWithin(parent, child, posix),
          byRelative(parent, child),
          `${parent} ${child}`,
        );
      }
    }),
    { numRuns: 20_000 },
  );
});
