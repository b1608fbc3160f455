/**
 * A file URL's path (src/file_url.ts) is `node:url`'s on this system, for any path made a
 * URL, and a Windows URL's is a Windows path (drive or share).
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fromFileUrl } from "../src/file_url.ts";

Deno.test("fromFileUrl: the path node:url gives, for any path made a file URL", () => {
  const part = fc.string({ unit: "grapheme", minLength: 1 }).filter((s) => !/[\/\\\0]/.test(s));
  const base = Deno.build.os === "windows" ? "C:\\" : "/";
  const sep = Deno.build.os === "windows" ? "\\" : "/";
  fc.assert(
    fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), (parts) => {
      const url = pathToFileURL(base + parts.join(sep));
      assert.equal(fromFileUrl(url), fileURLToPath(url));
      assert.equal(fromFileUrl(url.href), fileURLToPath(url));
    }),
    { numRuns: 2_000 },
  );
  assert.equal(fromFileUrl(import.meta.url), fileURLToPath(import.meta.url));
});

Deno.test("fromFileUrl: on Windows, drives and shares", () => {
  assert.equal(fromFileUrl("file:///C:/a%20b/c.ts", true), "C:\\a b\\c.ts");
  assert.equal(fromFileUrl("file:///C:/", true), "C:\\");
  assert.equal(fromFileUrl("file://server/share/x", true), "\\\\server\\share\\x");
  assert.throws(() => fromFileUrl("file:///C:/a%2Fb", true), TypeError);
});

Deno.test("fromFileUrl: not a file URL, or one of another host, is refused", () => {
  assert.throws(() => fromFileUrl("https://example.com/a", false), TypeError);
  assert.throws(() => fromFileUrl("file://server/a", false), TypeError);
  assert.equal(fromFileUrl("file://localhost/a/b", false), "/a/b");
  assert.throws(() => fromFileUrl("file:///a%2Fb", false), TypeError);
});
