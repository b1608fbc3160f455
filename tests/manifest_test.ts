/**
 * The MCP bundle's manifest.json (contract §15, §20): it validates in .ci/run with the
 * bundle tool itself; here, that it matches the server and that the command it makes
 * Claude Desktop run works, with the folders from its folder picker as arguments.
 */
import assert from "node:assert/strict";
import path from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import denoJson from "../deno.json" with { type: "json" };
import manifest from "../manifest.json" with { type: "json" };
import { layOut, platformOf } from "../.github/scripts/bundle.ts";
import { LIST_ROOTS_TOOL } from "../src/mcp/list_roots.ts";
import { styledName } from "../src/mcp/tool_names.ts";
import { SEARCH_TOOL } from "../src/mcp/search_tool.ts";
import { CHANGES_TOOL } from "../src/mcp/changes_tool.ts";
import { searchThrough, standInBinary } from "./helpers/clients.ts";
import { childEnv } from "./helpers/spawn.ts";
import { makeTree, T0 } from "./helpers/tree.ts";
import { sanitize } from "./helpers/sanitize.ts";

Deno.test("manifest.json names the server's version and its tools as clients list them", () => {
  assert.equal(manifest.version, denoJson.version);
  assert.equal(manifest.server.mcp_config.env.TOOL_NAMES, "underscore");
  assert.deepEqual(
    manifest.tools.map((t) => t.name),
    [SEARCH_TOOL, CHANGES_TOOL, LIST_ROOTS_TOOL].map((t) => styledName(t.name, "underscore")),
  );
  assert.equal(manifest.user_config.folders.type, "directory");
  assert.equal(manifest.user_config.folders.multiple, true);
});

Deno.test({
  name: "manifest.json: the command Claude Desktop runs serves the picked folders",
  ignore: Deno.build.os === "windows",
  ...sanitize,
  async fn() {
    await using a = await makeTree({ "a.md": { mtime: T0 } });
    await using b = await makeTree({ "notes/b.md": { mtime: T0 } });
    await using standIn = await standInBinary();
    const { file: binary, dir } = standIn;
    const { command, args, env } = manifest.server.mcp_config;
    // The host's substitution: ${__dirname}, and a list of folders as separate arguments
    // where an argument is exactly "${user_config.folders}".
    const folders = [b.root, a.root];
    const expanded = args.flatMap((arg) => arg === "${user_config.folders}" ? folders : [arg]);
    await Deno.mkdir(path.join(dir, "server"));
    await Deno.rename(binary, path.join(dir, "server", "file-time-search"));
    const transport = new StdioClientTransport({
      command: command.replace("${__dirname}", dir),
      args: expanded,
      env: childEnv(env),
      stderr: "ignore",
    });
    assert.deepEqual(await searchThrough(transport), ["notes/b.md"]);
  },
});

Deno.test("bundle layout: one platform per target, the binary under server/", async () => {
  const out = await Deno.makeTempDir({ prefix: "fts-bundle-" });
  await using _ = { [Symbol.asyncDispose]: () => Deno.remove(out, { recursive: true }) };
  const binary = path.join(out, "binary");
  await Deno.writeTextFile(binary, "stand-in");
  for (
    const [target, platform, file] of [
      ["x86_64-pc-windows-msvc", "win32", "file-time-search.exe"],
      ["aarch64-apple-darwin", "darwin", "file-time-search"],
      ["x86_64-unknown-linux-gnu", "linux", "file-time-search"],
    ] as const
  ) {
    assert.equal(platformOf(target), platform);
    const folder = path.join(out, target);
    await layOut(target, binary, folder);
    const written = JSON.parse(await Deno.readTextFile(path.join(folder, "manifest.json")));
    assert.deepEqual(written.compatibility.platforms, [platform]);
    assert.equal(await Deno.readTextFile(path.join(folder, "server", file)), "stand-in");
  }
});
