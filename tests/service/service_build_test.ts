/**
 * One build per service (contract §28a): a session of a copy of the program with one
 * module changed (the same version) gets a service of its own, and `fs.list_roots` names
 * each session's build; `file-time-search status` lists this user's services and `stop`
 * ends those of a root; SIGTERM, SIGINT and SIGHUP end a service as its idle end does,
 * leaving no socket, lock or private folder.
 */
import assert from "node:assert/strict";
import { T0, type TreeSpec } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { MAIN } from "../helpers/server.ts";
import { denoDir } from "../helpers/spawn.ts";
import type { Staged } from "../helpers/nobody.ts";
import { until } from "../helpers/until.ts";
import {
  alive,
  answeredBy,
  BUILD,
  endsLeavingNothing,
  lastSessionEnded,
  privateFolderOf,
  readyShared,
  servicePids,
  session,
  SHARED_SKIP,
  treeWithServices,
} from "../helpers/sessions.ts";

const ignore = SHARED_SKIP !== null;
const SPEC: TreeSpec = { "a/one.txt": { mtime: T0 }, "b/two.txt": { mtime: T0 + 1 } };
const PROJECT = MAIN.slice(0, MAIN.lastIndexOf("/"));

/** A copy of the program with one module changed (a comment added), run from the copy. */
async function changedCopy(): Promise<Staged> {
  const at = await Deno.makeTempDir({ prefix: "fts-copy-" });
  const out = await new Deno.Command("cp", {
    args: [
      "-r",
      `${PROJECT}/main.ts`,
      `${PROJECT}/deno.json`,
      `${PROJECT}/deno.lock`,
      `${PROJECT}/src`,
      at,
    ],
  }).output();
  assert.ok(out.success);
  await Deno.writeTextFile(`${at}/src/errors.ts`, "\n// changed\n", { append: true });
  return {
    command: Deno.execPath(),
    prefix: [],
    main: `${at}/main.ts`,
    cwd: at,
    denoDir: denoDir(),
    [Symbol.asyncDispose]: () => Deno.remove(at, { recursive: true }),
  };
}

Deno.test({
  name: "service build: a session of other code, same version, gets a service of its own",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(SPEC);
    await using copy = await changedCopy();
    await using a = await session(tree.root);
    const mine = await readyShared(a);
    assert.equal(mine.shared?.build, BUILD);
    await using b = await session(tree.root, {}, copy);
    const theirs = await readyShared(b);
    assert.match(theirs.shared?.build ?? "", /^0\.\d+\.\d+.*\+[0-9a-f]{12}$/);
    assert.notEqual(theirs.shared?.build, BUILD, "the copy's build is its own");
    assert.equal(servicePids(tree.root).length, 2, "a service for each build");
    assert.equal(mine.shared?.sessions, 1);
    assert.equal(theirs.shared?.sessions, 1);
    assert.equal((await b.search({ timeField: "modified" })).isError, false);
    assert.deepEqual(await answeredBy(b), { index: 1, walk: 0 });
  },
});

/** Runs `file-time-search ARGS` (the command line, as `deno task cli` runs it). */
async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "-A", MAIN, ...args],
    env: { DENO_DIR: denoDir() },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, out: text };
}

Deno.test({
  name: "service build: status lists this user's services, stop ends a root's, leaving nothing",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(SPEC);
    await using other = await treeWithServices(SPEC);
    const service = await lastSessionEnded(tree.root, "15m");
    const kept = await lastSessionEnded(other.root, "15m");
    const status = await cli("status");
    assert.equal(status.code, 0, status.out);
    for (const [root, pid] of [[tree.root, service.pid], [other.root, kept.pid]] as const) {
      const at = status.out.indexOf(`service pid ${pid}, `);
      assert.ok(at >= 0, status.out);
      const [head, line] = status.out.slice(at).split("\n");
      assert.match(
        head!,
        new RegExp(
          `build ${
            BUILD.replace("+", "\\+")
          }, 0 session\\(s\\), up \\d+s, \\d+ MB \\(PSS\\), ends in \\d+m \\d+s unless a session comes`,
        ),
      );
      assert.match(
        line!,
        new RegExp(`^  ${root}  index ready \\(\\d+ entries\\), 0 session\\(s\\)$`),
      );
    }
    const stopped = await cli("stop", tree.root);
    assert.equal(stopped.code, 0, stopped.out);
    assert.match(stopped.out, new RegExp(`stopped: ${tree.root} \\(pid ${service.pid}\\)`));
    await endsLeavingNothing(service);
    assert.ok(alive(kept.pid), "the other root's service goes on");
    assert.equal((await cli("stop")).code, 2, "stop names a root or --all");
    // Not `--all` here: it would end the services of the tests running beside this one.
    const second = await cli("stop", other.root);
    assert.match(second.out, new RegExp(`stopped: ${other.root}`));
    await endsLeavingNothing(kept);
  },
});

for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  Deno.test({
    name: `service build: ${signal} ends a service as its idle end does, leaving nothing`,
    ignore,
    ...sanitize,
    async fn() {
      await using tree = await treeWithServices(SPEC);
      const service = await lastSessionEnded(tree.root, "15m");
      await until(() => alive(service.pid), "the service");
      Deno.kill(service.pid, signal);
      await endsLeavingNothing(service);
    },
  });
}

Deno.test({
  name:
    "service build: the socket, lock and private folder of a killed service are removed by the next",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(SPEC);
    await using other = await treeWithServices(SPEC);
    const killed = await lastSessionEnded(tree.root, "15m");
    const folder = privateFolderOf(killed.pid);
    assert.ok(folder !== null, "the service's private folder");
    assert.ok(Deno.lstatSync(killed.socket).isSocket, "its socket");
    assert.ok(Deno.lstatSync(killed.lock).isFile, "and its lock");
    Deno.kill(killed.pid, "SIGKILL"); // it removes nothing
    await until(() => !alive(killed.pid), "the killed service to end");
    // What it left is not looked at between the kill and the next session: any service
    // starting meanwhile sweeps it (sweepDead, makePrivateFolder), another test's too under
    // `--parallel`, and did so in a shared suite (its socket) and in CI (its private folder).
    // Gone after the next one, whichever it is.
    await using b = await session(other.root);
    await readyShared(b);
    assert.throws(() => Deno.lstatSync(killed.socket), Deno.errors.NotFound);
    assert.throws(() => Deno.lstatSync(killed.lock), Deno.errors.NotFound);
    assert.throws(() => Deno.lstatSync(folder), Deno.errors.NotFound);
  },
});

Deno.test({
  name: "service build: the first call, walked while the index is built or reached, says so",
  ignore,
  ...sanitize,
  async fn() {
    const spec: TreeSpec = {};
    for (let i = 0; i < 3000; i++) spec[`d${i % 30}/f${i}.txt`] = { mtime: T0 + i };
    await using tree = await treeWithServices(spec);
    await using a = await session(tree.root);
    // Its first call, at once: the service it started is not up, or its index not built.
    const first = await a.search({ timeField: "modified", limit: 10 });
    assert.equal(first.isError, false);
    assert.deepEqual(await answeredBy(a), { index: 0, walk: 1 }, "the first call walked");
    const notes = (first.structuredContent as { notes?: { code: string; message: string }[] })
      .notes ?? [];
    const note = notes.find((n) => n.code === "IndexBuilding");
    assert.ok(note, JSON.stringify(notes));
    assert.match(
      note.message,
      /^Answered by a walk of the folder, since its index (service is still being reached|is still being built( \(\d+ entries read so far\))?); calls after it is ready are answered from memory\.$/,
    );
    await readyShared(a);
    const later = await a.search({ timeField: "modified", limit: 10 });
    const laterNotes = (later.structuredContent as { notes?: { code: string }[] }).notes ?? [];
    assert.ok(!laterNotes.some((n) => n.code === "IndexBuilding"), "not once it is ready");
  },
});

Deno.test({
  name:
    "service build: a session's log says it started or joined a service, ready, and a link dropped",
  ignore,
  ...sanitize,
  async fn() {
    await using tree = await treeWithServices(SPEC);
    await using a = await session(tree.root);
    await readyShared(a);
    const [pid] = servicePids(tree.root);
    const build = BUILD.replace("+", "\\+");
    // Each line is waited for: stderr is read apart from the answers (two pipes).
    const said = (conn: typeof a, line: RegExp) =>
      until(() => line.test(conn.stderrTail()), `${line}`);
    await said(
      a,
      new RegExp(`index: root #1 started its index service \\(pid ${pid}, build ${build}, `),
    );
    await said(a, /index: root #1 is ready in its index service/);
    await using b = await session(tree.root);
    await readyShared(b);
    await said(b, new RegExp(`index: root #1 joined its index service \\(pid ${pid}`));
    Deno.kill(pid!, "SIGKILL");
    await until(
      () => /index: root #1 has no link to its index service: /.test(b.stderrTail()),
      "the drop said",
    );
  },
});
