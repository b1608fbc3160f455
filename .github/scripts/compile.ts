/**
 * Compiles the server into one binary per target, with the flags of `deno task start`
 * (src/runtime_flags.ts), every worker module of src/worker_modules.ts, which
 * `deno compile` does not find by itself, and the build's digest (`build_stamp.json`,
 * src/wire/build.ts), written from the sources first.
 *
 * Usage: `deno task compile` (the host), `deno task compile <target>...`, or
 * `deno task compile all`; `--dry-run` prints the commands instead of running them.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SERVER_FLAGS } from "../../src/runtime_flags.ts";
import { WORKER_MODULES } from "../../src/worker_modules.ts";
import { BUILD_STAMP, codeDigest } from "../../src/wire/build.ts";

/** Every target a release ships. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
  "aarch64-pc-windows-msvc",
] as const;

const REPOSITORY = fileURLToPath(new URL("../../", import.meta.url));

/** Every worker entry module, relative to the repository, `/`-separated. */
export const WORKER_FILES: readonly string[] = Object.values(WORKER_MODULES).map((url) =>
  path.relative(REPOSITORY, fileURLToPath(url)).replaceAll("\\", "/")
);

/** The `deno compile` arguments for one target (`null`: the host, as `dist/file-time-search`). */
export function compileArgs(target: string | null): string[] {
  // Compiled binaries read any path; each scan worker is narrowed to the roots at run time.
  const flags = SERVER_FLAGS.filter((f) => f !== "--quiet");
  const output = target === null ? "dist/file-time-search" : `dist/file-time-search-${target}`;
  return [
    "compile",
    ...flags,
    ...WORKER_FILES.flatMap((file) => ["--include", file]),
    // The build's digest (contract §28a), written from the sources before compiling.
    "--include",
    BUILD_STAMP,
    ...(target === null ? [] : ["--target", target]),
    "--output",
    output,
    "main.ts",
  ];
}

if (import.meta.main) {
  const dryRun = Deno.args.includes("--dry-run");
  const words = Deno.args.filter((a) => a !== "--dry-run");
  const unknown = words.filter((w) => w !== "all" && !(TARGETS as readonly string[]).includes(w));
  if (unknown.length > 0) {
    console.error(
      `compile: unknown target ${unknown.join(", ")}; one of: all, ${TARGETS.join(", ")}`,
    );
    Deno.exit(2);
  }
  const targets = words.includes("all") ? [...TARGETS] : words.length === 0 ? [null] : words;
  const stamp = path.join(REPOSITORY, BUILD_STAMP);
  const digest = await codeDigest(REPOSITORY.replace(/[\\/]$/, ""));
  if (!dryRun) Deno.writeTextFileSync(stamp, JSON.stringify({ digest }) + "\n");
  let failed = 0;
  try {
    for (const target of targets) {
      const args = compileArgs(target);
      if (dryRun) {
        console.log(["deno", ...args].join(" "));
        continue;
      }
      const { code } = await new Deno.Command(Deno.execPath(), { args }).spawn().status;
      if (code !== 0) {
        failed = code;
        break;
      }
    }
  } finally {
    // Never left beside the sources: a server run from them would take it for its build.
    if (!dryRun) Deno.removeSync(stamp);
  }
  if (failed !== 0) Deno.exit(failed);
}
