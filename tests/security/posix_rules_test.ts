/**
 * The sandbox's POSIX path rules (src/security/posix_rules.ts) compute what `node:path`'s
 * `posix` does, for every function the sandbox uses, on paths made of the segments that
 * make paths hard (`.`, `..`, empty, names with dots) and absolute or relative, with and
 * without trailing slashes; and the host's rules are these on Linux and macOS.
 */
import assert from "node:assert/strict";
import path from "node:path";
import fc from "npm:fast-check@4.10.2";
import { posixRules } from "../../src/security/posix_rules.ts";
import { hostRules } from "../../src/security/mod.ts";

const segment = fc.constantFrom("a", "b", "ab", ".", "..", "", "..a", ".a", "a.", "...");
const anyPath = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }))
  .map(([absolute, parts]) => (absolute ? "/" : "") + parts.join("/"));

Deno.test("posix rules: resolve, relative, join, isAbsolute and parse's root as node:path", () => {
  fc.assert(
    fc.property(anyPath, anyPath, fc.array(anyPath, { maxLength: 3 }), (a, b, more) => {
      assert.equal(posixRules.isAbsolute(a), path.posix.isAbsolute(a), `isAbsolute ${a}`);
      assert.equal(posixRules.resolve(a), path.posix.resolve(a), `resolve ${a}`);
      assert.equal(posixRules.resolve(a, b, ...more), path.posix.resolve(a, b, ...more));
      assert.equal(posixRules.relative(a, b), path.posix.relative(a, b), `relative ${a} ${b}`);
      assert.equal(posixRules.join(a, b, ...more), path.posix.join(a, b, ...more));
      assert.equal(posixRules.parse(a).root, path.posix.parse(a).root, `parse ${a}`);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("posix rules: cases kept (roots, the top, dots and trailing slashes)", () => {
  const cases: [string, string][] = [
    ["/", "/"],
    ["/", "/a"],
    ["/a", "/"],
    ["/a/b", "/a/bc"],
    ["/a/bc", "/a/b"],
    ["/a/b/", "/a/b/c/"],
    ["//a//b", "/a/./b/../b/c"],
    ["a/b", "a/../.."],
    ["", ""],
    ["..", "../.."],
  ];
  for (const [a, b] of cases) {
    assert.equal(posixRules.relative(a, b), path.posix.relative(a, b), `relative ${a} ${b}`);
    assert.equal(posixRules.resolve(a, b), path.posix.resolve(a, b), `resolve ${a} ${b}`);
    assert.equal(posixRules.join(a, b), path.posix.join(a, b), `join ${a} ${b}`);
  }
  assert.equal(posixRules.join(), ".");
  assert.equal(posixRules.resolve(), path.posix.resolve());
});

if (Deno.build.os === "windows") console.log("posix rules: on Windows the host's are node:path's");

Deno.test({
  name: "posix rules: the host's rules on Linux and macOS",
  ignore: Deno.build.os === "windows",
  fn() {
    assert.equal(hostRules, posixRules);
  },
});
