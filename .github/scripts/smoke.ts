/**
 * Release smoke test: starts a compiled binary as an MCP server on a temp folder,
 * initializes over stdio, lists the tools and runs one search (with a glob and ignore files,
 * whose matchers a worker loads when first asked), then searches until the
 * root's live index answers (contract §18: the binary carries the index's workers; one
 * left out turns the index off for good, which this sees), shared under the build its
 * compile wrote (contract §28a), which `status` names and `stop` ends, no root's path on its
 * service's command line. Exits non-zero on
 * any failure. Usage: deno run --allow-all .github/scripts/smoke.ts <binary>
 */
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import path from "node:path";

const binary = path.resolve(Deno.args[0] ?? "");
const root = await Deno.makeTempDir({ prefix: "fts-smoke-" });
await Deno.writeTextFile(path.join(root, "hello.md"), "hello");
interface RootIndex {
  state: string;
  entries: number;
  reason?: string;
  answers?: { index: number; walk: number };
  shared?: { build?: string; reason?: string };
}

/** Runs the binary with `args`: its exit code and what it printed. */
/** The command lines of services (`... service ...`) that hold `text`; `null` without `ps`. */
async function commandLinesWith(text: string): Promise<string[] | null> {
  try {
    const ps = await new Deno.Command("ps", { args: ["-axo", "args"], stdout: "piped" }).output();
    return new TextDecoder().decode(ps.stdout).split("\n")
      .filter((line) => / service /.test(`${line} `) && line.includes(text));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

async function run(...args: string[]): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command(binary, { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, out: text };
}

try {
  const transport = new StdioClientTransport({
    command: binary,
    env: { ALLOW_ROOTS: root },
    stderr: "inherit",
  });
  const client = new Client({ name: "release-smoke", version: "0" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = tools.map((t: { name: string }) => t.name);
  if (!names.includes("fs.search_by_time")) throw new Error(`tools: ${names}`);
  // With a glob and ignore files: a worker loads picomatch and `ignore` when a call first asks
  // for them (walk/exclusion.ts), so the binary must carry them for its workers too.
  const asked = { timeField: "modified", glob: "*.md", respectIgnoreFiles: true };
  const result = await client.callTool({ name: "fs.search_by_time", arguments: asked });
  const matches = (result.structuredContent as { matches: { path: string }[] }).matches.map((m) =>
    m.path
  );
  if (result.isError || matches.join() !== "hello.md") throw new Error(JSON.stringify(result));

  // The root's index is built at start-up (INDEX=on): it must become ready, holding the
  // root's entries, in the binary too (its workers are carried by it).
  const rootIndex = async (): Promise<RootIndex> => {
    const roots = await client.callTool({ name: "fs.list_roots", arguments: {} });
    const root = (roots.structuredContent as { roots: { index?: RootIndex }[] }).roots[0]!;
    return root.index ?? { state: "off", entries: 0, reason: "the server has no live index" };
  };
  const waitUntil = Date.now() + 60_000;
  let index = await rootIndex();
  if (Deno.build.os === "windows") {
    // Windows indexes no root (docs/index.md): the binary says so, and walks.
    if (!(index.state === "off" && /on Windows/.test(index.reason ?? ""))) {
      throw new Error(`Windows should walk, and say why: ${JSON.stringify(index)}`);
    }
  } else {
    while (!(index.state === "ready" && index.entries > 0)) {
      if (index.state === "off" && index.reason !== "not used yet" || Date.now() > waitUntil) {
        throw new Error(`the live index never answered: ${JSON.stringify(index)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      await client.callTool({ name: "fs.search_by_time", arguments: { timeField: "modified" } });
      index = await rootIndex();
    }
    // Once ready, a call passes the barrier (the binary may write its private folder) and
    // is answered by the index.
    const before = index.answers?.index ?? 0;
    const indexed = await client.callTool({ name: "fs.search_by_time", arguments: asked });
    index = await rootIndex();
    if ((index.answers?.index ?? 0) <= before || indexed.isError) {
      throw new Error(
        `the index did not answer: ${JSON.stringify(index)} ${JSON.stringify(indexed)}`,
      );
    }
    // Shared (contract §28a): the binary names its build by the digest its build wrote, and
    // `status` and `stop` reach its service.
    if (!/^\d+\.\d+\.\d+.*\+[0-9a-f]{12}$/.test(index.shared?.build ?? "")) {
      throw new Error(`the index is not shared under a build: ${JSON.stringify(index.shared)}`);
    }
    const status = await run("status");
    if (status.code !== 0 || !status.out.includes(index.shared!.build!)) {
      throw new Error(`status: ${status.code} ${status.out}`);
    }
    // No root's path on a service's command line (contract §28a): `ps` shows every user's.
    const shown = await commandLinesWith(Deno.realPathSync(root));
    if (shown === null) console.log("no ps here: the services' command lines are not checked");
    else if (shown.length > 0) throw new Error(`a root's path on a command line: ${shown}`);
    const stop = await run("stop", root);
    if (stop.code !== 0 || !/^stopped: /m.test(stop.out)) throw new Error(`stop: ${stop.out}`);
  }
  await client.close();
  console.log(`smoke ok: ${binary} (${names.join(", ")}; index ${JSON.stringify(index)})`);
} finally {
  await Deno.remove(root, { recursive: true });
}
