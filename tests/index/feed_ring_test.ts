/**
 * The ring a fill's feed goes through (src/index/fill/feed_ring.ts) and the records it carries
 * (src/index/fill/feed_records.ts): chunks come out as they went in, across the ring's end; a
 * writer told to stop, or given a chunk that can never fit, does not wait; records read
 * back as written.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { FeedReader, FeedWriter, newFeedRing, stopFeed } from "../../src/index/fill/feed_ring.ts";
import { type FedStat, readRecords, RecordWriter } from "../../src/index/fill/feed_records.ts";

Deno.test("feed ring: chunks come out whole and in order, across the ring's end", () => {
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ minLength: 0, maxLength: 60 }), { maxLength: 40 }),
      (chunks) => {
        const ring = newFeedRing(64);
        const writer = new FeedWriter(ring);
        const reader = new FeedReader(ring);
        const out: Uint8Array[] = [];
        for (const chunk of chunks) {
          assert.equal(writer.push(chunk), true); // each fits once the last is read
          out.push(reader.pull()!);
          assert.equal(reader.pull(), null);
        }
        assert.deepEqual(out, chunks);
      },
    ),
  );
});

Deno.test("feed ring: a writer told to stop, or with a chunk that cannot fit, does not wait", () => {
  const ring = newFeedRing(64);
  const writer = new FeedWriter(ring);
  assert.equal(writer.push(new Uint8Array(61)), false); // 4 bytes of length + 61 > 64
  assert.equal(writer.push(new Uint8Array(60)), true);
  assert.equal(writer.waitForGo(() => true), false); // not yet told to go
  stopFeed(ring);
  assert.equal(writer.push(new Uint8Array(1)), false); // the ring is full: it would wait
  assert.equal(writer.waitForGo(() => false), false);
});

Deno.test("feed records: listings and stats read back as written", () => {
  const ring = newFeedRing(1 << 16);
  const writer = new RecordWriter(new FeedWriter(ring));
  const entry = (name: string, isDirectory: boolean, isSymlink = false) => ({
    name,
    isDirectory,
    isFile: !isDirectory && !isSymlink,
    isSymlink,
  });
  writer.list("/r/한글", [entry("a.txt", false), entry("sub", true), entry("link", false, true)]);
  const info = (mtime: Date | null, birthtime: Date | null, size: number, dev: number) =>
    ({
      ...entry("", false),
      mtime,
      birthtime,
      size,
      dev,
      ino: dev + 1,
    }) as unknown as Deno.FileInfo;
  writer.stat("/r/한글/a.txt", info(new Date(1_700_000_000_123), null, 42, 2049));
  writer.stat("/r/x", info(null, new Date(5), 0, 0));
  assert.equal(writer.flush(), true);
  const listings: unknown[] = [];
  const stats: [string, FedStat][] = [];
  readRecords(
    new FeedReader(ring).pull()!,
    (path, listing) => listings.push([path, listing]),
    (path, stat) => stats.push([path, stat]),
  );
  assert.deepEqual(listings, [["/r/한글", { names: ["a.txt", "sub", "link"], kinds: [2, 1, 4] }]]);
  assert.deepEqual(stats, [
    ["/r/한글/a.txt", {
      kind: 2,
      mtime: 1_700_000_000_123,
      birth: NaN,
      size: 42,
      dev: 2049,
      ino: 2050,
    }],
    ["/r/x", { kind: 2, mtime: NaN, birth: 5, size: 0, dev: 0, ino: 1 }],
  ]);
});
