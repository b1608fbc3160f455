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
  const out = new Deno.Command("sh", {
    args: ["-c", `cat /proc/${pid}/fdinfo/* 2>/dev/null`],
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  const text = new TextDecoder().decode(out.stdout);
  return text.split("\n").filter((line) => line.startsWith("inotify wd:")).length;
}
