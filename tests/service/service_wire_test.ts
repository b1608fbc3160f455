/**
 * The wire of a root's index service under load and abuse (contract §28a), with the real
 * server and the service it starts: a page of 1,000 matches read by a client that does not
 * read for seconds arrives whole, with heartbeats only before and after it; a peer that
 * sends what is not a whole message of ours (not JSON, JSON of the wrong shape, a line past
 * the bound, half a line then nothing) loses its own connection and nothing else (the
 * service lives on, a session is still answered by its index); 30 pages of `limit: 1000`
 * are all answered by the index, and the sessions the service counts are the open ones; a
 * service out of file descriptors accepts again once they are free.
 */
import assert from "node:assert/strict";
import { T0, type TreeSpec } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { rootIndex } from "../helpers/server.ts";
import { until } from "../helpers/until.ts";
import { searchRequest } from "../helpers/request.ts";
import {
  answeredBy,
  BUILD,
  readyShared,
  servicePathsOf,
  servicePids,
  session,
  SHARED_SKIP,
  treeWithServices,
} from "../helpers/sessions.ts";
import {
  type FromService,
  LineError,
  messages,
  type ToService,
  Writer,
} from "../../src/wire/mod.ts";
import denoJson from "../../deno.json" with { type: "json" };

const ignore = SHARED_SKIP !== null;
/** Whether `prlimit` (util-linux) is here to lower a service's open-file limit. */
const PRLIMIT = !ignore &&
  new Deno.Command("sh", { args: ["-c", "command -v prlimit"], stdout: "null" }).outputSync()
    .success;
if (!ignore && !PRLIMIT) console.log("the open-file limit test is skipped: no prlimit here");

/**
 * `files` files, with long names unless `short` (a page of 1,000 long names is far more than
 * a socket's buffers; 1,000 short ones fit a result's character budget).
 */
function spec(files: number, short = false): TreeSpec {
  const out: TreeSpec = {};
  const long = short ? "f" : "a-rather-long-file-name-".repeat(8);
  for (let i = 0; i < files; i++) {
    out[`d${i % 20}/${long}${String(i).padStart(6, "0")}.txt`] = { mtime: T0 + i };
  }
  return out;
}

/** A raw connection to the service of `root`, said hello as a session of this build. */
async function rawSession(root: string): Promise<{ conn: Deno.Conn; writer: Writer }> {
  const { socket } = servicePathsOf(root);
  const conn = await Deno.connect({ transport: "unix", path: socket });
  const writer = new Writer(conn);
  const name = socket.slice(socket.lastIndexOf("/") + 1, -".sock".length);
  await writer.send({ t: "hello", version: denoJson.version, build: BUILD, name });
  return { conn, writer };
}

Deno.test({
  name: "service wire: a 1,000-match page read by a slow reader arrives whole",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec(1200));
    await using a = await session(tree.root);
    await readyShared(a);
    const { conn, writer } = await rawSession(tree.root);
    const scan: ToService = {
      t: "scan",
      id: 1,
      request: searchRequest(tree.root, { order: "time_desc", limit: 1000 }),
      keepAll: 0,
    };
    await writer.send(scan);
    // The slow reader: nothing is read while the service's heartbeats fall due (each second).
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const kinds: string[] = [];
    let matches = -1;
    try {
      for await (const message of messages<FromService>(conn)) {
        kinds.push(message.t);
        if (message.t === "scan") matches = message.outcome?.collected.first.length ?? -1;
        if (message.t === "scan") break;
      }
    } finally {
      conn.close();
    }
    assert.equal(kinds[0], "hello");
    assert.equal(kinds.at(-1), "scan", kinds.join(","));
    assert.ok(kinds.slice(1, -1).every((k) => k === "waiting" || k === "progress"), kinds.join());
    assert.equal(matches, 1001, "the first limit + 1 matches, whole");
  },
});

/** Reads `conn` until its end; whether the peer ended it (rather than `ms` passing first). */
async function endsWithin(conn: Deno.Conn, ms: number): Promise<boolean> {
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    conn.close();
  }, ms);
  try {
    for await (const _ of messages<FromService>(conn)) { /* hello, heartbeats */ }
  } catch (err) {
    if (!(err instanceof LineError)) throw err;
  } finally {
    clearTimeout(timer);
  }
  if (!late) {
    try {
      conn.close();
    } catch { /* closed */ }
  }
  return !late;
}

Deno.test({
  name:
    "service wire: a peer that sends what is not a whole message of ours loses its own connection only",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec(30));
    await using a = await session(tree.root);
    await readyShared(a);
    const [pid] = servicePids(tree.root);
    const real = tree.root;
    const request = searchRequest(real, { limit: 5 });
    const bad: { name: string; hello: boolean; bytes: () => AsyncIterable<Uint8Array> }[] = [];
    const lines = (...texts: string[]) =>
      async function* () {
        for (const text of texts) yield new TextEncoder().encode(text);
      };
    bad.push({ name: "not JSON", hello: false, bytes: lines("garbage, not JSON\n") });
    bad.push({ name: "no hello first", hello: false, bytes: lines('{"t":"status","id":1}\n') });
    for (
      const line of [
        '{"t":"journal","id":1}',
        '{"t":"journal","id":2,"query":{}}',
        '{"t":"scan","id":1}',
        JSON.stringify({ t: "scan", id: 1, request: { ...request, root: null }, keepAll: 0 }),
        JSON.stringify({ t: "scan", id: 1, request: { ...request, limits: 7 }, keepAll: 0 }),
        '{"t":"cancel"}',
        "[1,2,3]",
        "null",
      ]
    ) bad.push({ name: line.slice(0, 60), hello: true, bytes: lines(line + "\n") });
    bad.push({
      name: "a 100 MB line",
      hello: true,
      bytes: async function* () {
        const chunk = new Uint8Array(1024 * 1024).fill(0x61);
        for (let i = 0; i < 100; i++) yield chunk;
      },
    });
    bad.push({ name: "half a line, then nothing", hello: true, bytes: lines('{"t":"sta') });
    for (const { name, hello, bytes } of bad) {
      const { conn, writer } = hello
        ? await rawSession(tree.root)
        : await Deno.connect({ transport: "unix", path: (servicePathsOf(real)).socket })
          .then((conn) => ({ conn, writer: new Writer(conn) }));
      void writer; // the hello, if any, is written
      const writing = (async () => {
        try {
          for await (const chunk of bytes()) {
            for (let done = 0; done < chunk.length;) done += await conn.write(chunk.subarray(done));
          }
        } catch { /* the service ended the connection while it was written */ }
      })();
      // The service's bound for a begun line is 10 s; for a first message, 10 s too.
      const ended = await endsWithin(conn, 20_000);
      await writing;
      assert.ok(ended, `${name}: the connection ended`);
      assert.deepEqual(servicePids(tree.root), [pid], `${name}: the service lives on`);
    }
    const before = (await answeredBy(a)).index;
    assert.equal((await a.search({ timeField: "modified", limit: 5 })).isError, false);
    assert.equal((await answeredBy(a)).index, before + 1, "answered by the index");
    assert.equal((await readyShared(a)).shared?.sessions, 1, "the open sessions only");
  },
});

Deno.test({
  name:
    "service wire: 30 pages of limit 1000 come from the index; sessions counted are the open ones",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec(30_200, true));
    await using a = await session(tree.root);
    await using b = await session(tree.root, { MAX_RESULT_CHARS: "1000000" });
    await readyShared(a);
    await readyShared(b);
    let cursor: string | null = null;
    for (let page = 0; page < 30; page++) {
      const args: Record<string, unknown> = { timeField: "modified", limit: 1000 };
      if (cursor !== null) args.cursor = cursor;
      const result = await b.search(args);
      assert.equal(result.isError, false, `page ${page + 1}`);
      const out = result.structuredContent as { matches: unknown[]; nextCursor: string | null };
      assert.equal(out.matches.length, 1000, `page ${page + 1}`);
      cursor = out.nextCursor;
    }
    const answers = await answeredBy(b);
    assert.equal(answers.walk, 0, `every page from the index: ${JSON.stringify(answers)}`);
    assert.equal((await rootIndex(a) as { shared?: { sessions?: number } }).shared?.sessions, 2);
  },
});

Deno.test({
  name: "service wire: out of descriptors, a service accepts again once they are free",
  ignore: ignore || !PRLIMIT,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec(10));
    await using a = await session(tree.root, { SHARED_INDEX_IDLE: "60" });
    await readyShared(a);
    const [pid] = servicePids(tree.root);
    const { socket } = servicePathsOf(tree.root);
    // 50 descriptors left to it: most of 300 connections cannot be accepted (EMFILE).
    // Counted by a shell: Deno reads /proc only with every permission.
    const listed = await new Deno.Command("sh", {
      args: ["-c", `ls /proc/${pid}/fd | wc -l`],
      stdout: "piped",
    }).output();
    const open = Number(new TextDecoder().decode(listed.stdout).trim());
    assert.ok(open > 0, "the service's open descriptors");
    const limit = await new Deno.Command("prlimit", {
      args: [`--pid=${pid}`, `--nofile=${open + 50}:${open + 50}`],
      stderr: "piped",
    }).output();
    assert.ok(limit.success, new TextDecoder().decode(limit.stderr));
    const conns: Deno.Conn[] = [];
    for (let i = 0; i < 300; i++) {
      conns.push(await Deno.connect({ transport: "unix", path: socket }));
    }
    for (const conn of conns) conn.close();
    // Free again: within 5 s the service accepts and answers a hello (its accept loop lives).
    const freed = Date.now();
    await until(async () => {
      try {
        const { conn, writer } = await rawSession(tree.root);
        void writer;
        const first = await messages<FromService>(conn).next();
        conn.close();
        return !first.done && first.value.t === "hello";
      } catch {
        return false;
      }
    }, "a hello answered");
    const ms = Date.now() - freed;
    assert.ok(ms < 5000, `accepting again within 5 s: ${ms} ms`);
    // Its status says it could not accept some (`file-time-search status` prints it).
    const asked = await Deno.connect({ transport: "unix", path: socket });
    await new Writer(asked).send({ t: "about" });
    const about = await messages<FromService>(asked).next();
    asked.close();
    assert.ok(!about.done && about.value.t === "about");
    assert.match(about.value.about.unaccepted?.last ?? "", /.+/, "the last one's why");
    assert.ok((about.value.about.unaccepted?.count ?? 0) > 0, "connections it could not accept");
    // A new session is answered by the same service's index.
    await using b = await session(tree.root);
    await readyShared(b);
    assert.equal((await b.search({ timeField: "modified", limit: 5 })).isError, false);
    assert.deepEqual(await answeredBy(b), { index: 1, walk: 0 });
    assert.deepEqual(servicePids(tree.root), [pid], "the same service");
  },
});

Deno.test({
  name:
    "service wire: a service stopped during a call costs no answer: the session walks it in time",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(spec(30, true));
    const env = { SCAN_TIMEOUT_MS: "5000", ON_LIMIT: "partial" };
    await using a = await session(tree.root, env);
    await readyShared(a);
    const [pid] = servicePids(tree.root);
    const args = { timeField: "modified", limit: 100 };
    const expected = (await a.search(args)).structuredContent as { matches: unknown[] };
    Deno.kill(pid!, "SIGSTOP");
    try {
      const t0 = Date.now();
      const result = await a.search(args);
      const ms = Date.now() - t0;
      const out = result.structuredContent as { matches: unknown[]; stats: { truncated: boolean } };
      assert.equal(result.isError, false);
      assert.equal(out.stats.truncated, false, "whole, not cut at the deadline");
      assert.deepEqual(out.matches, expected.matches);
      assert.ok(ms < 6000, `answered within the deadline and a second: ${ms} ms`);
      assert.deepEqual((await answeredBy(a)).walk, 1, "by the session's own walk");
    } finally {
      Deno.kill(pid!, "SIGCONT");
    }
  },
});
