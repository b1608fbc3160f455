import assert from "node:assert/strict";
import { throwsCode } from "../helpers/throws.ts";
import { normalizeRelativePath } from "../../src/security/relative_path.ts";

/** Asserts that `input` is refused with `code`. */
function refused(input: string, code: string): void {
  throwsCode(() => normalizeRelativePath(input), code, JSON.stringify(input));
}

Deno.test("normalizeRelativePath() reads '', '.' and './' as the root itself", () => {
  assert.equal(normalizeRelativePath(""), "");
  assert.equal(normalizeRelativePath("."), "");
  assert.equal(normalizeRelativePath("./"), "");
  assert.equal(normalizeRelativePath("./."), "");
  assert.equal(normalizeRelativePath(".\\"), "");
});

Deno.test("normalizeRelativePath() keeps a plain relative path", () => {
  assert.equal(normalizeRelativePath("docs"), "docs");
  assert.equal(normalizeRelativePath("docs/2025"), "docs/2025");
});

Deno.test("normalizeRelativePath() drops '.' segments", () => {
  assert.equal(normalizeRelativePath("a/./b"), "a/b");
  assert.equal(normalizeRelativePath("./a/."), "a");
});

Deno.test("normalizeRelativePath() drops empty segments and trailing slashes", () => {
  assert.equal(normalizeRelativePath("a//b/"), "a/b");
  assert.equal(normalizeRelativePath("a///b//"), "a/b");
});

Deno.test("normalizeRelativePath() reads a backslash as '/'", () => {
  assert.equal(normalizeRelativePath("a\\b"), "a/b");
  assert.equal(normalizeRelativePath("a\\b/c\\"), "a/b/c");
});

Deno.test("normalizeRelativePath() resolves '..' that stays inside the root", () => {
  assert.equal(normalizeRelativePath("a/../b"), "b");
  assert.equal(normalizeRelativePath("docs/.."), "");
  assert.equal(normalizeRelativePath("a/b/../../c"), "c");
  assert.equal(normalizeRelativePath("docs\\2025/./a/../b"), "docs/2025/b");
});

Deno.test("normalizeRelativePath() rejects a leading '/' or '\\' as PathNotRelative", () => {
  refused("/etc", "PathNotRelative");
  refused("/", "PathNotRelative");
  refused("\\x", "PathNotRelative");
});

Deno.test("normalizeRelativePath() rejects drive prefixes as PathNotRelative", () => {
  for (const input of ["C:", "C:\\x", "C:x", "c:/x", "z:", "C:/"]) {
    refused(input, "PathNotRelative");
  }
});

Deno.test("normalizeRelativePath() rejects UNC and device prefixes as PathNotRelative", () => {
  for (
    const input of [
      "\\\\server\\share",
      "//server/share",
      "\\\\?\\C:\\x",
      "\\\\.\\pipe",
      "//./pipe",
    ]
  ) {
    refused(input, "PathNotRelative");
  }
});

Deno.test("normalizeRelativePath() rejects climbing above the root as PathTraversalDetected", () => {
  for (const input of ["..", "../x", "a/../..", "a/../../b", "..\\x", "./..", "a/b/../../.."]) {
    refused(input, "PathTraversalDetected");
  }
});

Deno.test("normalizeRelativePath() rejects a climb even when it comes back down", () => {
  refused("../root/x", "PathTraversalDetected");
  refused("a/../../a/b", "PathTraversalDetected");
});

Deno.test("normalizeRelativePath() accepts names that merely contain dots", () => {
  for (const name of ["..a", "a..", ".hidden", "a/..b/c", ".a.", "a . b"]) {
    const out = normalizeRelativePath(name);
    assert.ok(!out.split("/").includes(".."), `${name} -> ${out}`);
  }
  assert.equal(normalizeRelativePath("..a"), "..a");
  assert.equal(normalizeRelativePath("a.."), "a..");
  assert.equal(normalizeRelativePath(".hidden"), ".hidden");
  assert.equal(normalizeRelativePath("a/..b/c"), "a/..b/c");
});

Deno.test("normalizeRelativePath() keeps spaces and quotes as typed", () => {
  assert.equal(normalizeRelativePath(" a"), " a");
  assert.equal(normalizeRelativePath("a "), "a ");
  assert.equal(normalizeRelativePath("'a'"), "'a'");
  assert.equal(normalizeRelativePath('"a b"'), '"a b"');
});

Deno.test("normalizeRelativePath() refuses segments of only dots and spaces", () => {
  // Windows trims trailing dots and spaces, so these could name '.' or '..' there.
  for (const input of ["...", "....//x", "a/.. ", "a/. .", ".. /x", " ", "a/ /b", "a/ ../b"]) {
    refused(input, "PathTraversalDetected");
  }
});

Deno.test("normalizeRelativePath() never returns '.', '..', empty segments or a leading '/'", () => {
  const inputs = ["a/./b", "a//b/", "x/../y/./z", "./", "a\\\\b", "a/b/.."];
  for (const input of inputs) {
    const out = normalizeRelativePath(input);
    assert.ok(!out.startsWith("/"), out);
    if (out !== "") {
      for (const seg of out.split("/")) {
        assert.ok(seg !== "" && seg !== "." && seg !== "..", `${input} -> ${out}`);
      }
    }
  }
});
