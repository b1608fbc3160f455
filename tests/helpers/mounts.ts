/**
 * File systems mounted over a folder of a test tree (a bind mount, a `tmpfs`), and why that
 * cannot be done here: only Linux, and only a user who may mount (root with the capability:
 * a container may forbid it). Skipped elsewhere with a message.
 *
 * @module
 */

/** Runs `mount`/`umount` with `args`; the error's words when it fails. */
function run(command: string, args: string[]): string | null {
  try {
    const out = new Deno.Command(command, { args, stdout: "null", stderr: "piped" }).outputSync();
    return out.success ? null : new TextDecoder().decode(out.stderr).trim() || `${command} failed`;
  } catch (err) {
    return `${command}: ${err instanceof Error ? err.message : err}`;
  }
}

/** Why nothing can be mounted here, or `null` when it can (tried once, on a scratch folder). */
export const MOUNT_SKIP: string | null = (() => {
  if (Deno.build.os !== "linux") return "not Linux";
  if (Deno.uid() !== 0) return "the suite does not run as root (only root may mount)";
  const scratch = Deno.makeTempDirSync({ prefix: "fts-mount-probe-" });
  try {
    const failed = run("mount", ["-t", "tmpfs", "-o", "size=1m", "fts-probe", scratch]);
    if (failed !== null) return `mounting is not allowed here (${failed})`;
    return run("umount", [scratch]);
  } finally {
    Deno.removeSync(scratch, { recursive: true });
  }
})();
if (MOUNT_SKIP) console.log(`mount tests skipped: ${MOUNT_SKIP}`);

/** Mounts a `tmpfs` (no source) or binds `source` over `at`; unmounted when disposed. */
export function mountOver(at: string, source?: string): Disposable {
  const args = source === undefined
    ? ["-t", "tmpfs", "-o", "size=4m", "fts-test", at]
    : ["--bind", source, at];
  const failed = run("mount", args);
  if (failed !== null) throw new Error(failed);
  let mounted = true;
  return {
    [Symbol.dispose]: () => {
      if (!mounted) return;
      mounted = false;
      const left = run("umount", [at]);
      if (left !== null) throw new Error(left);
    },
  };
}
