/**
 * The server run as an unprivileged user (`nobody`, through `setpriv`): running as root
 * hides permission bugs, since root reads every folder whatever its mode. Only root can
 * drop to another user, so these tests run where the suite runs as root on Linux with
 * `setpriv`, and are skipped elsewhere with a message. The user can reach nothing of
 * root's home, so the Deno binary, the project and the packages the server imports are
 * copied to a folder it can read (its own Deno cache it may write).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { denoDir } from "./spawn.ts";

/** The user and group the server runs as. */
export const NOBODY = 65534;

/** Why the server cannot be run as another user here, or `null` when it can. */
export const NOBODY_SKIP: string | null = Deno.build.os !== "linux"
  ? "not Linux"
  : Deno.uid() !== 0
  ? "the suite does not run as root (only root can run a process as another user)"
  : !hasSetpriv()
  ? "setpriv is missing (util-linux)"
  : !othersMayPass(Deno.env.get("TMPDIR") || "/tmp")
  ? "other users cannot reach the temp folder (TMPDIR)"
  : null;
if (NOBODY_SKIP) console.log(`unprivileged tests skipped: ${NOBODY_SKIP}`);

/** Whether every folder from `/` down to `dir` lets other users pass (o+x). */
function othersMayPass(dir: string): boolean {
  for (let at = dir; at !== "" && at !== "/"; at = at.slice(0, at.lastIndexOf("/"))) {
    try {
      if (((Deno.statSync(at).mode ?? 0) & 0o001) === 0) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function hasSetpriv(): boolean {
  try {
    return new Deno.Command("setpriv", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** What the unprivileged server runs from. */
export interface Staged {
  /** The command and the arguments before Deno's own. */
  command: string;
  prefix: string[];
  /** The server's entry module, its working folder and its Deno cache. */
  main: string;
  cwd: string;
  denoDir: string;
  [Symbol.asyncDispose](): Promise<void>;
}

const PROJECT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Copies what the server needs where `nobody` can read it; run as `uid` (and that group),
 * another unprivileged user, for a test that needs a socket folder no other test uses.
 */
export async function stageForNobody(uid = NOBODY): Promise<Staged> {
  const at = await Deno.makeTempDir({ prefix: "fts-nobody-" });
  await Deno.chmod(at, 0o755);
  const script = [
    `cp "$DENO" "$AT/deno"`,
    `mkdir -p "$AT/project" "$AT/deno_dir"`,
    `cp -r "$PROJECT/main.ts" "$PROJECT/deno.json" "$PROJECT/deno.lock" "$PROJECT/src" "$AT/project/"`,
    `cp -r "$CACHE/npm" "$AT/deno_dir/"`,
    `chmod -R a+rX "$AT"`,
    `chown -R ${uid}:${uid} "$AT/deno_dir"`,
  ].join(" && ");
  const out = await new Deno.Command("sh", {
    args: ["-c", script],
    env: { DENO: Deno.execPath(), AT: at, PROJECT, CACHE: denoDir() },
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return {
    command: "setpriv",
    prefix: [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", `${at}/deno`],
    main: `${at}/project/main.ts`,
    cwd: `${at}/project`,
    denoDir: `${at}/deno_dir`,
    [Symbol.asyncDispose]: () => Deno.remove(at, { recursive: true }),
  };
}
