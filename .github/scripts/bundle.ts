/**
 * Builds one MCP bundle (`.mcpb`) per release target, beside the binaries in `dist/`:
 * a folder with `manifest.json` (its platform narrowed to the target's) and the compiled
 * binary as `server/file-time-search`, zipped by `mcpb pack`.
 *
 * Usage, after `deno task compile all`:
 * `deno run --allow-read --allow-write --allow-run --allow-env .github/scripts/bundle.ts all`
 */
import path from "node:path";
import manifest from "../../manifest.json" with { type: "json" };
import { TARGETS } from "./compile.ts";
import { bundleName } from "./registry.ts";

/** The pinned bundle tool. */
export const MCPB = "@anthropic-ai/mcpb@2.1.2";

/** The bundle's platform for a compile target. */
export function platformOf(target: string): "darwin" | "linux" | "win32" {
  if (target.includes("apple-darwin")) return "darwin";
  if (target.includes("windows")) return "win32";
  return "linux";
}

/** Writes the bundle folder for `target` from the binary at `binary`. */
export async function layOut(target: string, binary: string, outDir: string): Promise<void> {
  const platform = platformOf(target);
  const exe = platform === "win32" ? ".exe" : "";
  await Deno.mkdir(path.join(outDir, "server"), { recursive: true });
  await Deno.copyFile(binary, path.join(outDir, "server", `file-time-search${exe}`));
  const narrowed = {
    ...manifest,
    compatibility: { ...manifest.compatibility, platforms: [platform] },
  };
  await Deno.writeTextFile(
    path.join(outDir, "manifest.json"),
    JSON.stringify(narrowed, null, 2) + "\n",
  );
}

if (import.meta.main) {
  const targets = Deno.args[0] === "all" ? [...TARGETS] : Deno.args;
  if (targets.length === 0) {
    console.error("usage: bundle.ts all | <target>...");
    Deno.exit(2);
  }
  for (const target of targets) {
    const exe = platformOf(target) === "win32" ? ".exe" : "";
    const folder = `build/bundle-${target}`;
    await layOut(target, `dist/file-time-search-${target}${exe}`, folder);
    const pack = new Deno.Command("npx", {
      args: ["-y", MCPB, "pack", folder, `dist/${bundleName(target)}`],
    });
    const { code } = await pack.spawn().status;
    if (code !== 0) Deno.exit(code);
  }
}
