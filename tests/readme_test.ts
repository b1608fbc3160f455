/**
 * Every command and client configuration in the README, run as printed: placeholder
 * folders are replaced by a temp tree and this checkout, and the downloaded binary (which
 * only the release workflow can build) by a stand-in script with the compile tasks' flags.
 */
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parse as parseToml } from "npm:smol-toml@1.9.1";
import { searchThrough, standInBinary } from "./helpers/clients.ts";
import { childEnv } from "./helpers/spawn.ts";
import { makeTree, T0, type TempTree } from "./helpers/tree.ts";
import { sanitize } from "./helpers/sanitize.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/[\\/]$/, "");
const README = Deno.readTextFileSync(`${REPO}/README.md`);
const BINARY = "/home/me/bin/file-time-search";
/** Every fenced block of the README with the given info string. */
function blocks(lang: string): string[] {
  return [...README.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) =>
    m[1]!
  );
}

/** The README's text with its placeholders pointing at real places. */
function pasted(text: string, tree: TempTree, binary: string): string {
  return text.replaceAll("/home/me/Documents", tree.root)
    .replaceAll("/home/me/file-time-search", REPO)
    .replaceAll(BINARY, binary)
    .replaceAll("$HOME/Documents", tree.root);
}

Deno.test({
  name: "README client configurations work when pasted",
  ignore: Deno.build.os === "windows",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "notes/a.md": { mtime: T0 }, "b.txt": { mtime: T0 } });
    await using standIn = await standInBinary();
    const binary = standIn.file;
    const configs = blocks("json").filter((b) =>
      b.includes('"mcpServers"') || b.includes('"servers"')
    );
    assert.equal(configs.length, 3, "Claude Desktop / Cursor, Cursor with the binary, VS Code");
    assert.equal(blocks("json").length, 3);
    for (const config of configs) {
      const parsed = JSON.parse(pasted(config, tree, binary));
      const server = (parsed.mcpServers ?? parsed.servers)["file-time-search"];
      const transport = new StdioClientTransport({
        command: server.command,
        args: server.args ?? [],
        env: childEnv(server.env),
        stderr: "ignore",
      });
      assert.equal(
        server.env.TOOL_NAMES,
        "underscore",
        "every documented client gets names without dots",
      );
      assert.deepEqual(await searchThrough(transport), ["notes/a.md"], config);
    }
  },
});

Deno.test({
  name: "README Claude Code commands work when pasted",
  ignore: Deno.build.os === "windows",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "x/a.md": { mtime: T0 } });
    await using standIn = await standInBinary();
    const binary = standIn.file;
    const lines = [
      ...blocks("sh").flatMap((b) => b.split("\n")),
      ...[...README.matchAll(/`(claude mcp add [^`]+)`/g)].map((m) => m[1]!),
    ].filter((l) => l.startsWith("claude mcp add"));
    assert.equal(lines.length, 2);
    for (const line of lines) {
      // `claude mcp add NAME --env K=V -- COMMAND ARGS...`: run what Claude Code would.
      const words = pasted(line, tree, binary).split(" ");
      const dashes = words.indexOf("--");
      const env: Record<string, string> = {};
      words.slice(0, dashes).forEach((w, i, all) => {
        if (all[i - 1] === "--env") env[w.split("=")[0]!] = w.slice(w.indexOf("=") + 1);
      });
      const [command, ...args] = words.slice(dashes + 1);
      const transport = new StdioClientTransport({
        command: command!,
        args,
        env: childEnv(env),
        stderr: "ignore",
      });
      assert.deepEqual(await searchThrough(transport), ["x/a.md"], line);
    }
  },
});

Deno.test({
  name: "README Codex configuration parses as TOML and works when pasted",
  ignore: Deno.build.os === "windows",
  ...sanitize,
  async fn() {
    await using tree = await makeTree({ "notes/a.md": { mtime: T0 } });
    const [toml] = blocks("toml");
    assert.ok(toml, "README has a Codex configuration");
    const config = parseToml(pasted(toml, tree, BINARY)) as {
      mcp_servers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    const server = config.mcp_servers["file-time-search"]!;
    assert.equal(server.env.TOOL_NAMES, "underscore");
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: childEnv(server.env),
      stderr: "ignore",
    });
    assert.deepEqual(await searchThrough(transport), ["notes/a.md"]);
  },
});

Deno.test({
  name: "README quick-start start command serves on stdio, on the clone itself",
  ...sanitize,
  async fn() {
    const line = blocks("sh")[0]!.split("\n").find((l) => /task (-q )?start/.test(l));
    assert.ok(line, "README has a start command");
    assert.ok(line.includes('"$PWD"'), "it allows a folder that exists everywhere: the clone");
    const transport = new StdioClientTransport({
      command: "sh",
      args: ["-c", line],
      cwd: REPO,
      // As a person runs it: in the test's own environment (its index service ending with it).
      env: { ...Deno.env.toObject(), SHARED_INDEX_IDLE: "0" },
      stderr: "ignore",
    });
    assert.ok((await searchThrough(transport)).includes("README.md"));
  },
});

/** Runs a README command line in the clone, as printed. */
async function runInClone(line: string): Promise<{ code: number; stdout: string }> {
  const out = await new Deno.Command("sh", {
    args: ["-c", line],
    cwd: REPO,
    stdout: "piped",
    stderr: "null",
  }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

Deno.test("README's first command prints a table of the clone's newest files", async () => {
  const first = blocks("sh")[0]!.split("\n").find((l) => l.trim() !== "" && !l.startsWith("#"));
  assert.ok(first !== undefined && /task -q cli search/.test(first), `first command: ${first}`);
  const { code, stdout } = await runInClone(first);
  assert.equal(code, 0);
  const lines = stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^PATH\s+KIND\s+SIZE/);
  assert.ok(lines.length >= 3, stdout);
  assert.match(stdout, /\nFound (\d+ files; this page shows )?\d+ (files|file)/);
});

Deno.test("README command-line example prints a table", async () => {
  const lines = blocks("sh").flatMap((b) => b.split("\n")).filter((l) => l.includes("--glob"));
  const line = lines.find((l) => /task -q cli/.test(l));
  assert.ok(line, "README has a CLI example with a glob");
  const { code, stdout } = await runInClone(line);
  assert.equal(code, 0);
  assert.match(stdout, /^PATH\s+KIND/);
  assert.match(stdout, /\nREADME\.md\s+file/);
  assert.doesNotMatch(stdout, /^\S+\.ts\s/m, "the glob leaves other files out");
});

Deno.test("README's status command runs as printed", async () => {
  const line = blocks("sh").flatMap((b) => b.split("\n")).find((l) => /task -q cli status/.test(l));
  assert.ok(line, "README has a status command");
  const { code, stdout } = await runInClone(line.replace(/\s+#.*$/, ""));
  assert.equal(code, 0);
  assert.match(stdout, /^(No index services\.|service pid \d+, build )/);
});

Deno.test("README is for users: at most 300 lines, the inside in docs/architecture.md", () => {
  const lines = README.trimEnd().split("\n").length;
  assert.ok(lines <= 300, `README: ${lines} lines`);
  assert.ok(README.includes("(docs/architecture.md)"), "it points at the tour");
  const tour = Deno.readTextFileSync(`${REPO}/docs/architecture.md`);
  assert.match(tour, /^## How it works$/m);
  // Each long command line once: the --allow-env list is printed in one configuration.
  assert.equal(README.split("--allow-env=").length - 1, 1);
});
