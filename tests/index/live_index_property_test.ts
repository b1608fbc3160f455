/**
 * The live index against a fresh walk (contract §18), on random trees and random batches
 * of changes: files and folders made, removed, renamed and moved, times changed, a folder
 * swapped for a link out of the root, a folder exchanged in one step for a link out (no
 * event at all), new links out of the root, ignore files written, bursts large enough
 * to overflow the watcher's queue, editors' saves (a temp file renamed over the name), a
 * file replaced by a hard link to another, two files exchanged in one step, links to
 * folders inside the root (then changes made through them), FIFOs and sockets. After each
 * batch, right away (the barrier, not a wait for the watch), every query (start paths,
 * also below folders that changed; globs, excludes, ignore files, either time, folders only,
 * small scan limits so that pages are cut) paged to the end gives the same pages, or the same error,
 * from the index as from a fresh walk with the index off; and the index answered it,
 * unless the batch lost events (then the root is being built again), made a FIFO (then
 * the root is no longer watched) or moved a link out about (then its watch is planned
 * again). The clock moves between batches, so snapshots expire as
 * in real use. Run twice: as in use, and with no count budget, so that every answer is cut
 * (as on a big tree) and a root's time order counts its window and names its page's folders
 * (src/index/focus/time_order.ts) after each batch.
 */
import assert from "node:assert/strict";
import path from "node:path";
import fc from "npm:fast-check@4.10.2";
import { limitsEnv, NAME, QUERY, TREE } from "../helpers/arbitraries.ts";
import { alike, engine, pagesOrCode } from "../helpers/engine.ts";
import { canExchange, exchange } from "../helpers/exchange.ts";
import { DAY, makeTree, T0 } from "../helpers/tree.ts";
import { liveIndex } from "../helpers/live_index.ts";
import { until } from "../helpers/until.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { denoDir } from "../helpers/spawn.ts";
import { seamIndexWorkerUrl } from "../helpers/seam.ts";

const MUTATION = fc.oneof(
  fc.record({ op: fc.constant("create"), name: NAME, day: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ op: fc.constant("mkdir"), name: NAME }),
  fc.record({ op: fc.constant("linkOut"), name: NAME }),
  fc.record({ op: fc.constantFrom("delete", "utime", "rename", "swapForLink"), pick: fc.nat() }),
  fc.record({ op: fc.constant("move"), pick: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant("burst"), pick: fc.nat() }),
  fc.record({ op: fc.constant("exchangeOut"), pick: fc.nat() }),
  fc.record({
    op: fc.constantFrom("save", "hardlink", "exchangeIn"),
    pick: fc.nat(),
    to: fc.nat(),
  }),
  fc.record({ op: fc.constant("linkIn"), pick: fc.nat(), name: NAME, day: fc.nat({ max: 4 }) }),
  fc.record({ op: fc.constantFrom("fifo", "socket"), name: NAME }),
  fc.record({
    op: fc.constant("ignore"),
    pick: fc.nat(),
    rules: fc.constantFrom("a", "b/", "*.b", "a*\n!a-b", "/B"),
  }),
);

/** A query of the widened kind that adds nothing (for the counterexamples kept from before). */
const PLAIN = {
  start: undefined,
  glob: undefined,
  exclude: undefined,
  respectIgnoreFiles: false,
  created: false,
  foldersOnly: false,
  to: undefined,
};

/** What a query adds to the shared ones: where it starts and what it filters. */
const INDEX_QUERY = fc.record({
  start: fc.option(fc.nat(), { nil: undefined }),
  glob: fc.option(fc.constantFrom("**/a*", "*", "a/**", "**/*.b", "**/é/**"), { nil: undefined }),
  exclude: fc.option(fc.constantFrom(["**/b"], ["a/**"], ["**/a b", "**/_"]), { nil: undefined }),
  respectIgnoreFiles: fc.boolean(),
  created: fc.boolean(),
  /** Folders only (`includeFiles: false`), now and then. */
  foldersOnly: fc.constantFrom(false, false, false, true),
  /** The window's end, in days after T0 (created times are today's: before it, none match). */
  to: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
});
type Mutation = typeof MUTATION extends fc.Arbitrary<infer T> ? T : never;

/**
 * Why a call may walk in this test: events were lost (the index is built again); a FIFO
 * appeared (its watch stalls on it, then is planned again without the FIFO's folder).
 */
const WALKS_ALLOWED =
  /^(its index is being built: events were lost|its watch did not pass a barrier|its watch is starting|its index is being built|a FIFO or device file appeared|a link to a folder outside it appeared|its root folder was moved, removed or replaced, or a folder its watch rests on was)/;
/**
 * After two entries of the root were exchanged in one step, the index may find at a folder's
 * path another inode on the same device than it holds: to a stat, a folder bound over it
 * (issue 40), so its watch is set up again and calls walk meanwhile (docs/behaviour.md).
 */
const EXCHANGE_WALK = /a file system was mounted or unmounted on a folder in it/;
/** Mutations that make a link to a folder outside the root: its watch may be planned again. */
const LINKS_OUT = new Set(["linkOut", "swapForLink", "exchangeOut"]);

/** Every entry below `root` (links not followed), root-relative, and which are folders. */
function listAll(root: string, rel = ""): { path: string; dir: boolean }[] {
  const out: { path: string; dir: boolean }[] = [];
  for (const e of Deno.readDirSync(rel === "" ? root : path.join(root, rel))) {
    const p = rel === "" ? e.name : `${rel}/${e.name}`;
    if (p.startsWith(".marker")) continue;
    out.push({ path: p, dir: e.isDirectory });
    if (e.isDirectory) out.push(...listAll(root, p));
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

function apply(root: string, outside: string, m: Mutation, step: number): void {
  if (m.op === "exchangeOut" && !canExchange) return;
  const all = listAll(root);
  const dirs = ["", ...all.filter((e) => e.dir).map((e) => e.path)];
  const abs = (p: string) => path.join(root, p);
  const taken = (p: string) => {
    try {
      Deno.lstatSync(abs(p));
      return true;
    } catch {
      return false;
    }
  };
  const pick = (n: number) => all[n % all.length];
  const into = (n: number, name: string) => {
    const dir = dirs[n % dirs.length]!;
    return dir === "" ? `${name}${step}` : `${dir}/${name}${step}`;
  };
  switch (m.op) {
    case "create": {
      if (taken(into(step * 7 + m.day, m.name))) return;
      const p = abs(into(step * 7 + m.day, m.name));
      Deno.writeTextFileSync(p, "x");
      Deno.utimeSync(p, new Date(T0 + m.day * DAY), new Date(T0 + m.day * DAY));
      return;
    }
    case "linkOut": // a new link out of the root: the runtime reports no event for it
      if (!taken(into(step * 5, m.name))) Deno.symlinkSync(outside, abs(into(step * 5, m.name)));
      return;
    case "mkdir":
      if (!taken(into(step * 3, m.name))) Deno.mkdirSync(abs(into(step * 3, m.name)));
      return;
    case "fifo": // the runtime's watcher would open it: its watch is planned again without it
      if (!taken(into(step * 11, m.name))) mkfifo(abs(into(step * 11, m.name)));
      return;
    case "socket": // opening one fails at once: nothing changes
      if (!taken(into(step * 13, m.name))) unixSocket(abs(into(step * 13, m.name)));
      return;
    case "burst": {
      // Far more events than the watcher's queue holds: the index must start over. Regular
      // files only: `utime` follows a link, and one whose folder was exchanged out dangles.
      const files = all.filter((e) => !e.dir && Deno.lstatSync(abs(e.path)).isFile);
      if (files.length === 0) return;
      for (let i = 0; i < 1500; i++) {
        const t = new Date(T0 + ((m.pick + i) % 5) * DAY);
        Deno.utimeSync(abs(files[(m.pick + i) % files.length]!.path), t, t);
      }
      return;
    }
  }
  const target = pick(m.pick);
  if (!target) return;
  const file = (n: number) => all.filter((e) => !e.dir)[n % Math.max(1, all.length)];
  switch (m.op) {
    case "save": { // an editor's save: a temp file written, then renamed over the name
      if (target.dir) return;
      const temp = abs(`${target.path}.tmp${step}`);
      Deno.writeTextFileSync(temp, `saved ${step} ${"x".repeat(m.to % 7)}`);
      const t = new Date(T0 + (m.to % 5) * DAY);
      Deno.utimeSync(temp, t, t);
      Deno.renameSync(temp, abs(target.path));
      return;
    }
    case "hardlink": { // the name now leads to another file (rm f && ln x f)
      const other = file(m.to);
      if (target.dir || !other || other.path === target.path) return;
      Deno.removeSync(abs(target.path));
      Deno.linkSync(abs(other.path), abs(target.path));
      return;
    }
    case "exchangeIn": { // two entries of the root exchanged in one step
      const other = pick(m.to);
      if (!canExchange || !other || other.path === target.path) return;
      if (other.path.startsWith(target.path + "/") || target.path.startsWith(other.path + "/")) {
        return;
      }
      exchange(abs(target.path), abs(other.path));
      return;
    }
    case "linkIn": { // a link to a folder inside the root, then a change made through it
      if (!target.dir) return;
      const link = into(m.pick * 3 + 1, m.name);
      if (taken(link)) return;
      const to = path.relative(path.dirname(abs(link)), abs(target.path)) || ".";
      Deno.symlinkSync(to, abs(link));
      if (`${link}/`.startsWith(`${target.path}/`)) return; // a link to a folder above it
      const through = abs(`${link}/via-${m.name}${step}`);
      Deno.writeTextFileSync(through, "x");
      const t = new Date(T0 + m.day * DAY);
      Deno.utimeSync(through, t, t);
      return;
    }
    case "delete":
      Deno.removeSync(abs(target.path), { recursive: true });
      return;
    case "utime": {
      const t = new Date(T0 + (m.pick % 5) * DAY + step);
      Deno.utimeSync(abs(target.path), t, t);
      return;
    }
    case "rename":
      if (!taken(`${target.path}-r${step}`)) {
        Deno.renameSync(abs(target.path), abs(`${target.path}-r${step}`));
      }
      return;
    case "move": {
      const to = into(m.to, "moved");
      if (to.startsWith(target.path + "/") || taken(to)) return; // not into itself
      Deno.renameSync(abs(target.path), abs(to));
      return;
    }
    case "swapForLink":
      if (!target.dir) return;
      Deno.removeSync(abs(target.path), { recursive: true });
      Deno.symlinkSync(outside, abs(target.path));
      return;
    case "exchangeOut": { // in one step: the folder leaves, a link out takes its place
      if (!target.dir) return;
      const link = path.join(
        outside,
        `..`,
        `${path.basename(outside)}-link-${crypto.randomUUID()}`,
      );
      Deno.symlinkSync(outside, link);
      exchange(abs(target.path), link);
      Deno.removeSync(link, { recursive: true }); // the folder, now outside
      return;
    }
    case "ignore": {
      const dir = target.dir ? target.path : path.dirname(target.path);
      const file = dir === "." ? ".gitignore" : `${dir}/.gitignore`;
      // Only over a regular file: a FIFO put in its place (a hard link to one) would block
      // this write until a reader came, and the test with it.
      if (taken(file) && !Deno.lstatSync(abs(file)).isFile) return;
      Deno.writeTextFileSync(abs(file), m.rules);
      return;
    }
  }
}

/** Makes a FIFO at `p` (Linux and macOS have `mkfifo`). */
function mkfifo(p: string): void {
  const made = new Deno.Command("mkfifo", { args: [p] }).outputSync();
  if (!made.success) throw new Error("mkfifo failed");
}

/** Leaves a Unix socket at `p` (made by a child allowed to, as the tests may not listen). */
function unixSocket(p: string): void {
  const code = `Deno.listen({ transport: "unix", path: ${JSON.stringify(p)} }); Deno.exit(0);`;
  const made = new Deno.Command(Deno.execPath(), {
    args: ["eval", `--allow-net=unix:${p}`, `--allow-write=${p}`, `--allow-read=${p}`, code],
    env: { DENO_DIR: denoDir() },
  }).outputSync();
  if (!made.success) throw new Error(new TextDecoder().decode(made.stderr));
}

/** As in use, and with every answer cut (no count budget: the time order counts, names folders). */
const BUDGETS = [
  ["", {}],
  [", every answer cut", { indexWorkerUrl: seamIndexWorkerUrl({ countBudget: 0 }) }],
] as const;

for (const [named, budget] of BUDGETS) {
  Deno.test({
    name: `live index: pages equal a fresh walk's after random changes${named}`,
    ignore: Deno.build.os === "windows",
    ...sanitize,
    async fn() {
      await using outside = await makeTree({ "secret.txt": { mtime: T0 } }, "fts-outside-");
      await fc.assert(
        fc.asyncProperty(
          TREE,
          fc.array(fc.array(MUTATION, { minLength: 1, maxLength: 4 }), {
            minLength: 1,
            maxLength: 3,
          }),
          fc.array(fc.tuple(QUERY, INDEX_QUERY), { minLength: 1, maxLength: 2 }),
          async (spec, batches, queries) => {
            await using tree = await makeTree(spec);
            const seen = new Set<string>();
            let rescans = 0;
            let fifos = false;
            let linksOut = false;
            let exchanged = false;
            const index = liveIndex(tree.root, {
              ...budget,
              barrierMs: 1000, // a FIFO stalls the watch: its calls walk after this
              onChanges: (paths, rescan) => {
                paths.forEach((p) => seen.add(p));
                if (rescan) rescans++;
              },
            });
            // The clock moves between batches: snapshots of an earlier batch expire.
            let now = T0 + 100 * DAY;
            const clock = { now: () => now };
            const engines = (q: typeof queries[number][0]) => {
              const env = limitsEnv(q);
              return {
                indexed: engine(tree.root, { scanner: index, clock, env }),
                fresh: engine(tree.root, { clock, env }),
              };
            };
            try {
              await engines(queries[0]![0]).indexed.search({ timeField: "modified" }); // the watch
              await until(() => index.status()[0]!.state === "ready", "the watch");
              for (const [step, batch] of batches.entries()) {
                now += 10 * 60_000;
                const before = listAll(tree.root);
                for (const m of batch) apply(tree.root, outside.root, m, step);
                // No waiting for the watch: the barrier before each indexed answer does that.
                fifos ||= batch.some((m) => m.op === "fifo");
                linksOut ||= batch.some((m) => LINKS_OUT.has(m.op));
                exchanged ||= batch.some((m) => m.op === "exchangeIn");
                // Start points from before the batch (now perhaps gone, or below a link) and after.
                const entries = [...before, ...listAll(tree.root)];
                for (const [q, w] of queries) {
                  const start = w.start === undefined || entries.length === 0
                    ? undefined
                    : entries[w.start % entries.length]!.path;
                  const args = {
                    timeField: w.created ? "created" : "modified",
                    sort: q.sort,
                    limit: q.limit,
                    includeDirectories: q.includeDirectories || w.foldersOnly,
                    includeFiles: !w.foldersOnly,
                    respectIgnoreFiles: w.respectIgnoreFiles,
                    ...(start === undefined ? {} : { path: start }),
                    ...(w.glob === undefined ? {} : { glob: w.glob }),
                    ...(w.exclude === undefined ? {} : { exclude: w.exclude }),
                    ...(q.from === undefined || w.created
                      ? {}
                      : { from: new Date(T0 + q.from * DAY).toISOString() }),
                    ...(w.to === undefined ? {} : { to: new Date(T0 + w.to * DAY).toISOString() }),
                  };
                  const { indexed, fresh } = engines(q);
                  const before = index.status()[0]!.answers.walk;
                  assert.deepEqual(
                    ...alike(await pagesOrCode(indexed, args), await pagesOrCode(fresh, args)),
                    JSON.stringify(args),
                  );
                  // Who answered: the index, unless events were lost or a FIFO appeared.
                  const { answers, lastWalk } = index.status()[0]!;
                  if (answers.walk > before) {
                    // A loss may keep the root walking for the rest of the run; a FIFO, or a
                    // link out moved about, plans its watch again (watch_plan.ts).
                    const exchangeWalk = exchanged && EXCHANGE_WALK.test(lastWalk!);
                    const excused = rescans > 0 || fifos || linksOut || exchangeWalk;
                    assert.ok(excused, `a walk answered: ${lastWalk} (${JSON.stringify(args)})`);
                    if (!exchangeWalk) assert.match(lastWalk!, WALKS_ALLOWED);
                  }
                }
              }
            } finally {
              index.close();
            }
          },
        ),
        {
          numRuns: 25,
          // Shrunk counterexamples, kept: a folder made right after a burst of events was
          // missed while the answer did not wait for the events in flight; a folder swapped
          // for a link out of the root raised no event at all (the runtime drops events on a
          // path that now leads outside), nor did a new link out; so held listings, and
          // folders' own stats, are checked against the disk.
          examples: [[
            // A folder the index holds is exchanged for a link out; a call starts below it
            // before any call re-reads its parent. Served from memory before the realpath
            // checks went to the disk (PathNotFound here, outside's files with a folder there).
            {
              "a": { kind: "dir", mtime: T0 },
              "a/c": { kind: "dir", mtime: T0 },
              "a/c/f": { mtime: T0 },
              "b": { mtime: T0 },
            },
            [[{ op: "utime", pick: 3 }], [{ op: "exchangeOut", pick: 0 }]],
            [[{
              sort: "time_desc",
              limit: 5,
              includeDirectories: true,
              maxFiles: undefined,
              maxDirectories: undefined,
              from: undefined,
            }, { ...PLAIN, start: 1 }], [{
              sort: "path_asc",
              limit: 5,
              includeDirectories: true,
              maxFiles: undefined,
              maxDirectories: undefined,
              from: undefined,
            }, PLAIN]],
          ], [
            {
              "a/a/a": { mtime: T0 },
              "a": { kind: "dir", mtime: T0 },
              "a/a": { kind: "dir", mtime: T0 + DAY },
            },
            [[{ op: "linkOut", name: "a" }], [{ op: "linkOut", name: "a" }]],
            [[{
              sort: "time_desc",
              limit: 1,
              includeDirectories: true,
              maxFiles: undefined,
              maxDirectories: undefined,
              from: undefined,
            }, PLAIN]],
          ], [
            {
              "a/a/a": { mtime: T0 },
              "a": { kind: "dir", mtime: T0 },
              "a/a": { kind: "dir", mtime: T0 + DAY },
            },
            [[{ op: "mkdir", name: "a b" }], [{ op: "burst", pick: 0 }, {
              op: "swapForLink",
              pick: 1291770626,
            }], [{ op: "mkdir", name: "a" }]],
            [[{
              sort: "time_desc",
              limit: 2,
              includeDirectories: false,
              maxFiles: 1,
              maxDirectories: undefined,
              from: undefined,
            }, PLAIN]],
          ], [
            {
              "a": { mtime: T0 },
              "é/a/a": { mtime: T0 },
              "é": { kind: "dir", mtime: T0 },
              "é/a": { kind: "dir", mtime: T0 + DAY },
            },
            [[{ op: "utime", pick: 0 }], [
              { op: "mkdir", name: "a" },
              { op: "burst", pick: 0 },
              { op: "mkdir", name: "a" },
              { op: "burst", pick: 0 },
            ]],
            [[{
              sort: "time_desc",
              limit: 1,
              includeDirectories: false,
              maxFiles: 1,
              maxDirectories: undefined,
              from: undefined,
            }, PLAIN]],
          ], [
            // A link in the root to a folder then exchanged out, and a burst: the harness's
            // `utime` followed the dangling link (NotFound); bursts touch regular files only.
            {
              "a/a/a": { mtime: T0 },
              "é/a/a": { mtime: T0 },
              "a": { kind: "dir", mtime: T0 },
              "a/a": { kind: "dir", mtime: T0 + DAY },
              "é": { kind: "dir", mtime: T0 + 2 * DAY },
              "é/a": { kind: "dir", mtime: T0 + 3 * DAY },
            },
            [[{ op: "linkOut", name: "a" }], [
              { op: "ignore", pick: 46147920, rules: "a" },
              { op: "linkOut", name: "a" },
              { op: "linkIn", pick: 642311903, name: "_", day: 0 },
              { op: "ignore", pick: 309888096, rules: "a" },
            ], [{ op: "exchangeOut", pick: 830820409 }, { op: "burst", pick: 0 }]],
            [[{
              sort: "time_desc",
              limit: 1,
              includeDirectories: false,
              maxFiles: undefined,
              maxDirectories: undefined,
              from: undefined,
            }, PLAIN]],
          ], [
            // Found in CI (seed 1642197425): two folders exchanged, a burst and a link out;
            // a call walked with the reason a folder bound over another has (EXCHANGE_WALK).
            {
              "a b/a": { mtime: T0 + 3 * DAY },
              "b/a": { mtime: T0 + DAY },
              "a-b/_/a-b": { mtime: T0 },
              "a/a": { mtime: T0 },
              "a/_": { mtime: T0 + 3 * DAY },
              "a.b/a": { mtime: T0 },
              "a b": { kind: "dir", mtime: T0 },
              "b": { kind: "dir", mtime: T0 + DAY },
              "a-b": { kind: "dir", mtime: T0 + 2 * DAY },
              "a-b/_": { kind: "dir", mtime: T0 + 3 * DAY },
              "a": { kind: "dir", mtime: T0 },
              "a.b": { kind: "dir", mtime: T0 + DAY },
            },
            [[
              { op: "exchangeIn", pick: 1105012936, to: 645256021 },
              { op: "burst", pick: 1548832996 },
              { op: "linkOut", name: "a" },
            ]],
            [[{
              sort: "time_asc",
              limit: 6,
              includeDirectories: true,
              maxFiles: undefined,
              maxDirectories: 4,
              from: 1,
            }, {
              start: 1441046867,
              glob: "**/é/**",
              exclude: ["**/a b", "**/_"],
              respectIgnoreFiles: false,
              created: false,
              foldersOnly: false,
              to: undefined,
            }]],
          ]],
        },
      );
    },
  });
}
