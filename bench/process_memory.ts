/**
 * A process's resident memory, all its threads (so its workers) included, from
 * `/proc/<pid>/status` (Linux): now and at its peak. Read through `cat`: Deno reads /proc
 * only with --allow-all.
 *
 * @module
 */

/** `VmRSS` and `VmHWM` of process `pid`, in MB. */
export async function processMemoryMb(pid: number): Promise<{ rss: number; peak: number }> {
  const out = await new Deno.Command("cat", { args: [`/proc/${pid}/status`], stdout: "piped" })
    .output();
  const status = new TextDecoder().decode(out.stdout);
  const mb = (field: string) =>
    Math.round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024);
  return { rss: mb("VmRSS"), peak: mb("VmHWM") };
}

/**
 * Process `pid`'s proportional set size in MB (`/proc/<pid>/smaps_rollup`): its resident
 * pages, each shared one divided among the processes that map it (the Deno executable's
 * code, mapped by every session and service), so that a sum over processes is the memory
 * they take together.
 */
export async function processPssMb(pid: number): Promise<number> {
  const out = await new Deno.Command("cat", {
    args: [`/proc/${pid}/smaps_rollup`],
    stdout: "piped",
  })
    .output();
  const kb = /^Pss:\s+(\d+) kB/m.exec(new TextDecoder().decode(out.stdout))?.[1];
  return Math.round(Number(kb ?? 0) / 1024);
}
