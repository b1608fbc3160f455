/**
 * Time-ordered pages from the root's time order (src/index/focus/time_order.ts) through a
 * ready live index: on a tree where every folder holds old and new files alike (so no
 * folder's bounds leave it out), newest-first and oldest-first pages of a window, with a
 * glob or a size bound too, paged to the end with cursors, equal a walk's, totals included
 * where the index gave them, and the index answered them; of modified times, and of created
 * times (the files' birth times: the order of them is made when first asked); of files, and
 * of files and folders (the folders by their own times). The newest file of all lies in
 * `.git` (left out, contract §27); files tie on their times across and within folders. Then
 * again after changes the snapshot does not hold (times moved, files and a folder removed, a
 * new folder with the newest files).
 */
import assert from "node:assert/strict";
import { alike, engine, pagesOrCode } from "../helpers/engine.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { readyIndex } from "../helpers/live_index.ts";
import { seamIndexWorkerUrl } from "../helpers/seam.ts";
import { sanitize } from "../helpers/sanitize.ts";

Deno.test({
  name: "time order: pages taken from the folders the order names equal a walk's, to the end",
  ...sanitize,
  async fn() {
    // 12 folders of 8 files; file f of folder d at day (f * 12 + d * 5) % 96: each folder
    // spans the days, and the newest files lie in different folders.
    const spec: Record<string, { mtime: number; content?: string }> = {};
    for (let d = 0; d < 12; d++) {
      for (let f = 0; f < 8; f++) {
        spec[`d${d}/sub/f${f}.txt`] = { mtime: T0 + ((f * 12 + d * 5) % 96) * DAY };
        const content = "x".repeat((f * 5 + d) % 13); // sizes 0-12 bytes
        if (f % 3 === 0) {
          spec[`d${d}/f${f}.md`] = { mtime: T0 + ((f * 7 + d * 11) % 96) * DAY, content };
        }
        spec[`d${d}/sub/g${f}.md`] = { mtime: T0 + ((f * 12 + d * 5) % 96) * DAY, content };
      }
    }
    spec[".git/objects/x"] = { mtime: T0 + 95 * DAY }; // newest of all, left out (§27)
    const made = new Date(Date.now() - 3_600_000).toISOString(); // before every birth time
    await using tree = await makeTree(spec);
    // Nothing is read again to count: an answer is cut whatever its size (as on a big tree).
    const index = await readyIndex(tree.root, {
      indexWorkerUrl: seamIndexWorkerUrl({ countBudget: 0 }),
    });
    const clock = { now: () => T0 + 100 * DAY };
    const same = async (args: Record<string, unknown>, plain: boolean) => {
      const before = index.status()[0]!.answers.index;
      const indexed = await pagesOrCode(engine(tree.root, { scanner: index, clock }), args);
      assert.ok(index.status()[0]!.answers.index > before, "answered by the index");
      const walked = await pagesOrCode(engine(tree.root, { clock }), args);
      assert.deepEqual(...alike(indexed, walked), JSON.stringify(args));
      // Counted from the order when there is no glob or size bound.
      assert.ok(Array.isArray(indexed));
      if (plain) assert.ok(indexed[0].stats.totalMatches > 0, JSON.stringify(args));
    };
    const asked = async () => {
      for (const sort of ["time_desc", "time_asc"]) {
        for (const limit of [1, 3, 7]) {
          for (
            const also of [{}, { from: made }, { from: made, glob: "**/*.md" }, {
              minSizeBytes: 4,
              maxSizeBytes: 9,
            }]
          ) {
            const plain = !("glob" in also) && !("minSizeBytes" in also);
            for (const includeDirectories of [false, true]) {
              await same({ timeField: "created", sort, limit, includeDirectories, ...also }, plain);
            }
          }
          for (
            const [from, to, also] of [
              [undefined, undefined, {}],
              [10, 80, {}],
              [10, 80, { glob: "**/*.md" }],
              [undefined, undefined, { glob: "d1*/**/g*" }],
              [10, 80, { path: "d2" }], // from a folder below the root
              [undefined, undefined, { path: "d4/sub", glob: "*.md" }],
              [5, 90, { minSizeBytes: 4, maxSizeBytes: 9 }],
            ] as const
          ) {
            const args = {
              timeField: "modified",
              sort,
              limit,
              ...also,
              ...(from === undefined ? {} : { from: new Date(T0 + from * DAY).toISOString() }),
              ...(to === undefined ? {} : { to: new Date(T0 + to! * DAY).toISOString() }),
            };
            const plain = !("glob" in also) && !("minSizeBytes" in also);
            await same(args, plain);
            await same({ ...args, includeDirectories: true }, plain); // folders by their own times
          }
        }
      }
    };
    try {
      await asked(); // the snapshot is made by the first question
      // Then changes it does not hold: newer and older times in some folders, a file and a
      // folder removed, a new folder with the newest files of all; asked again, the same.
      const at = (day: number) => new Date(T0 + day * DAY);
      await Deno.utime(`${tree.root}/d3/sub/f0.txt`, at(94), at(94));
      await Deno.utime(`${tree.root}/d5/f3.md`, at(-1), at(-1));
      await Deno.remove(`${tree.root}/d8/sub/g7.md`);
      await Deno.remove(`${tree.root}/d9`, { recursive: true });
      await Deno.mkdir(`${tree.root}/new/deep`, { recursive: true });
      for (const [i, name] of ["a.md", "deep/b.txt", "deep/c.md"].entries()) {
        await Deno.writeTextFile(`${tree.root}/new/${name}`, "x".repeat(5 + i));
        await Deno.utime(`${tree.root}/new/${name}`, at(93 + i / 2), at(93 + i / 2));
      }
      await asked();
    } finally {
      index.close();
    }
  },
});

/** One folder of 300 old files and the newest one; nine of 5 files between (in `at`). */
function edgeSpec(at = ""): Record<string, { mtime: number }> {
  const spec: Record<string, { mtime: number }> = {
    [`${at}big/newest.txt`]: { mtime: T0 + 90 * DAY },
  };
  for (let f = 0; f < 300; f++) spec[`${at}big/old${f}.txt`] = { mtime: T0 + (f % 10) * DAY };
  for (let d = 0; d < 9; d++) {
    for (let f = 0; f < 5; f++) {
      spec[`${at}d${d}/f${f}.txt`] = { mtime: T0 + (40 + d * 5 + f) * DAY };
    }
  }
  return spec;
}

Deno.test({
  name: "time order: a page is read from its folders only down to the order's edge",
  ...sanitize,
  async fn() {
    await readsToEdge(edgeSpec(), "");
  },
});

/**
 * Newest-5 of the edge tree (laid inside `at`, and asked from there), with no window and
 * with one: answered by the index, counted, and read only down to the page's edge.
 */
async function readsToEdge(spec: Record<string, { mtime: number }>, at: string): Promise<void> {
  await using tree = await makeTree(spec);
  const index = await readyIndex(tree.root);
  const clock = { now: () => T0 + 100 * DAY };
  try {
    for (const args of [{}, { from: new Date(T0).toISOString() }]) {
      const path = at === "" ? {} : { path: at.slice(0, -1) };
      const asked = { timeField: "modified", limit: 5, ...path, ...args };
      const before = index.status()[0]!.answers.index;
      const page = await engine(tree.root, { scanner: index, clock }).search(asked);
      assert.ok(index.status()[0]!.answers.index > before, "answered by the index");
      assert.equal(page.matches[0]!.path, `${at}big/newest.txt`);
      assert.equal(page.stats.totalMatches, 346);
      // `big`'s 300 old files lie past the edge (the 5th newest file's time): not read.
      assert.ok(page.stats.scannedFiles < 50, `${page.stats.scannedFiles} files read`);
    }
  } finally {
    index.close();
  }
}

Deno.test({
  name: "time order: a created window is counted and paged from the order of birth times",
  ...sanitize,
  async fn() {
    // 20 folders of 15 files, every one made within this test (its birth time is now's).
    const spec: Record<string, { mtime: number }> = {};
    for (let d = 0; d < 20; d++) {
      for (let f = 0; f < 15; f++) spec[`d${d}/f${f}.txt`] = { mtime: T0 + f * DAY };
    }
    const made = new Date(Date.now() - 3_600_000).toISOString();
    await using tree = await makeTree(spec);
    // Nothing is read again to count: without the order the total is not known.
    const index = await readyIndex(tree.root, {
      indexWorkerUrl: seamIndexWorkerUrl({ countBudget: 0 }),
    });
    const clock = { now: () => Date.now() };
    try {
      for (const args of [{}, { from: made }]) {
        const asked = { timeField: "created", limit: 5, ...args };
        const before = index.status()[0]!.answers.index;
        const page = await engine(tree.root, { scanner: index, clock }).search(asked);
        assert.ok(index.status()[0]!.answers.index > before, "answered by the index");
        assert.equal(page.matches.length, 5);
        assert.equal(page.stats.totalMatches, 300, JSON.stringify(asked));
        assert.ok(page.stats.scannedFiles < 150, `${page.stats.scannedFiles} files read`);
      }
    } finally {
      index.close();
    }
  },
});

Deno.test({
  name: "time order: with folders asked for too, a page is read from the folders the order names",
  ...sanitize,
  async fn() {
    // As above, and one folder's own time (d3) among the newest, every other's before the window.
    await using tree = await makeTree(edgeSpec());
    const at = (day: number) => new Date(T0 + day * DAY);
    for (const name of ["big", ...Array.from({ length: 9 }, (_, d) => `d${d}`)]) {
      const day = name === "d3" ? 89 : -10;
      await Deno.utime(tree.abs(name), at(day), at(day));
    }
    const index = await readyIndex(tree.root);
    const clock = { now: () => T0 + 100 * DAY };
    try {
      const asked = {
        timeField: "modified",
        limit: 5,
        includeDirectories: true,
        from: at(0).toISOString(),
        to: at(95).toISOString(),
      };
      const before = index.status()[0]!.answers.index;
      const page = await engine(tree.root, { scanner: index, clock }).search(asked);
      assert.ok(index.status()[0]!.answers.index > before, "answered by the index");
      assert.deepEqual(page.matches.slice(0, 2).map((m) => m.path), ["big/newest.txt", "d3"]);
      assert.equal(page.stats.totalMatches, 347); // 346 files and d3
      const walked = await engine(tree.root, { clock }).search(asked);
      assert.deepEqual(page.matches, walked.matches);
      // `big`'s 300 old files lie past the page's edge: not read.
      assert.ok(page.stats.scannedFiles < 50, `${page.stats.scannedFiles} files read`);
    } finally {
      index.close();
    }
  },
});

Deno.test({
  name: "time order: a page from a folder below the root is read from the folders the order names",
  ...sanitize,
  async fn() {
    // The tree of the edge test inside `top`, beside an `other` folder of newer files.
    const spec = edgeSpec("top/");
    for (let f = 0; f < 20; f++) spec[`other/n${f}.txt`] = { mtime: T0 + 95 * DAY };
    await readsToEdge(spec, "top/");
  },
});

Deno.test({
  name: "time order: folders only, a page and its total come from the order of folders",
  ...sanitize,
  async fn() {
    // 10 top folders of 3 subfolders of 4 files; the folders' own times spread over 40 days,
    // the files' all older than any of them.
    const spec: Record<string, { kind?: "dir"; mtime: number }> = {};
    for (let d = 0; d < 10; d++) {
      for (let s = 0; s < 3; s++) {
        for (let f = 0; f < 4; f++) spec[`g${d}/s${s}/f${f}.txt`] = { mtime: T0 };
        spec[`g${d}/s${s}`] = { kind: "dir", mtime: T0 + ((d * 7 + s * 3) % 40 + 1) * DAY };
      }
      spec[`g${d}`] = { kind: "dir", mtime: T0 + ((d * 11) % 40 + 1) * DAY };
    }
    await using tree = await makeTree(spec);
    // Nothing is read again to count: without the order the total is not known.
    const index = await readyIndex(tree.root, {
      indexWorkerUrl: seamIndexWorkerUrl({ countBudget: 0 }),
    });
    const clock = { now: () => T0 + 100 * DAY };
    const at = (day: number) => new Date(T0 + day * DAY).toISOString();
    try {
      for (
        const also of [{}, { from: at(10), to: at(30) }, { path: "g3" }, { sort: "time_asc" }]
      ) {
        const asked = {
          timeField: "modified",
          limit: 3,
          includeDirectories: true,
          includeFiles: false,
          ...also,
        };
        const before = index.status()[0]!.answers.index;
        const indexed = await pagesOrCode(engine(tree.root, { scanner: index, clock }), asked);
        assert.ok(index.status()[0]!.answers.index > before, "answered by the index");
        const walked = await pagesOrCode(engine(tree.root, { clock }), asked);
        assert.deepEqual(...alike(indexed, walked), JSON.stringify(asked));
        assert.ok(Array.isArray(indexed) && Array.isArray(walked));
        const [first, walkedFirst] = [indexed[0]!.stats, walked[0]!.stats];
        assert.ok(first.totalMatches !== undefined, `no total: ${JSON.stringify(asked)}`);
        assert.equal(first.totalMatches, walkedFirst.totalMatches);
        if (!("path" in also)) {
          assert.ok(
            first.scannedDirectories < walkedFirst.scannedDirectories,
            `${first.scannedDirectories} folders read, as many as a walk`,
          );
        }
      }
    } finally {
      index.close();
    }
  },
});
