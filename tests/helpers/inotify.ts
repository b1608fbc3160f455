/**
 * The inotify watches a process holds, read from `/proc/PID/fdinfo` (one `inotify wd:` line
 * per watch): what a watch that walked outside its root would show. Read through `cat`:
 * Deno asks for all permissions to read another process's `/proc` entries.
 *
 * @module
 */

/** How many inotify watches process `pid` holds; `null` where there is no `/proc` (not Linux). */
export function inotifyWatches(pid: number): number | null {
  if (Deno.build.os !== "linux") return null;
  return fdInfo(pid).split("\n").filter((line) => line.startsWith("inotify wd:")).length;
}

/** The inodes of the folders process `pid` watches (Linux). */
export function watchedInodes(pid: number): Set<number> {
  const watched = fdInfo(pid).matchAll(/^inotify wd:\S+ ino:([0-9a-f]+)/gm);
  return new Set([...watched].map((m) => parseInt(m[1]!, 16)));
}

/** What `/proc/PID/fdinfo` says of each of the process's open files. */
function fdInfo(pid: number): string {
  const out = new Deno.Command("sh", {
    args: ["-c", `cat /proc/${pid}/fdinfo/* 2>/dev/null`],
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return new TextDecoder().decode(out.stdout);
}
