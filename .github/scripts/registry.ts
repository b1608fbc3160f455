/**
 * The MCP Registry entry (contract §25): `server.json`, one `mcpb` package per release
 * asset that bundle.ts makes, each with the SHA-256 of its file. The repository holds the
 * entry with the placeholder owner and zero hashes (checked against the registry's schema
 * by tests/registry_test.ts); the release workflow writes the real one beside the assets:
 *
 * `deno run --allow-read --allow-write=dist .github/scripts/registry.ts <owner/repo> dist`
 */
import path from "node:path";
import deno from "../../deno.json" with { type: "json" };
import { TARGETS } from "./compile.ts";

/** The registry's schema this entry follows (docs/registry/README.md says where it came from). */
export const SCHEMA =
  "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** The repository the committed entry names until a release names its own. */
export const PLACEHOLDER_REPOSITORY = "file-time-search/file-time-search";

/** The hash the committed entry carries until a release fills it in. */
export const NO_HASH = "0".repeat(64);

/** The bundle bundle.ts makes for `target`. */
export function bundleName(target: string): string {
  return `file-time-search-${target}.mcpb`;
}

/** The entry for `repository` ("owner/name"), its bundles' hashes by target. */
export function serverJson(
  repository: string,
  sha256: (target: string) => string,
  version: string = deno.version,
): Record<string, unknown> {
  const owner = repository.split("/")[0]!;
  return {
    $schema: SCHEMA,
    name: `io.github.${owner}/file-time-search`,
    title: "File Time Search",
    description:
      "Find recently changed files and folders by modified or created time, in folders you allow.",
    version,
    repository: { url: `https://github.com/${repository}`, source: "github" },
    packages: TARGETS.map((target) => ({
      registryType: "mcpb",
      identifier: `https://github.com/${repository}/releases/download/v${version}/${
        bundleName(target)
      }`,
      version,
      fileSha256: sha256(target),
      transport: { type: "stdio" },
      packageArguments: [
        { type: "positional", value: "serve", description: "Serve MCP on stdin and stdout." },
        {
          type: "positional",
          valueHint: "folder",
          format: "filepath",
          isRequired: true,
          isRepeated: true,
          description: "A folder to search by time; give several to allow several.",
        },
      ],
      environmentVariables: [
        {
          name: "TOOL_NAMES",
          value: "underscore",
          description: "Tool names without dots (fs_search_by_time), which every client accepts.",
        },
      ],
    })),
  };
}

/** The SHA-256 of a file, in hex. */
async function sha256Of(file: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(file));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

if (import.meta.main) {
  const [repository, dist] = Deno.args;
  if (!repository?.includes("/") || !dist) {
    console.error("usage: registry.ts <owner/repo> <dist folder>");
    Deno.exit(2);
  }
  const hashes = new Map<string, string>();
  for (const target of TARGETS) {
    hashes.set(target, await sha256Of(path.join(dist, bundleName(target))));
  }
  const entry = serverJson(repository, (target) => hashes.get(target)!);
  await Deno.writeTextFile(path.join(dist, "server.json"), JSON.stringify(entry, null, 2) + "\n");
}
