/**
 * Benchmark trees: reproducible from a seed, with modification times spread over the
 * year before a fixed instant.
 *
 * @module
 */
import path from "node:path";

/** The shape of a generated tree. */
export interface TreeShape {
  /** Top-level folders. */
  top: number;
  /** Folders inside each top-level folder. */
  perTop: number;
  /** Files in each of those folders. */
  files: number;
  /** Depth of one extra chain of nested folders, one file in each. */
  deepChain: number;
  /** Entries in one extra flat folder. */
  bigDir: number;
}

/** The trees `deno task bench` uses. */
export const SHAPES: Record<string, TreeShape> = {
  "100k": { top: 10, perTop: 100, files: 100, deepChain: 0, bigDir: 0 },
  "500k": { top: 50, perTop: 100, files: 100, deepChain: 0, bigDir: 0 },
  "1m": { top: 100, perTop: 100, files: 100, deepChain: 200, bigDir: 200_000 },
  "2m": { top: 200, perTop: 100, files: 100, deepChain: 200, bigDir: 200_000 },
};

/** The instant the trees' times count back from: 2026-06-01T00:00:00Z. */
export const BENCH_NOW = Date.UTC(2026, 5, 1);
/** When the folders of a tree made "today" were made: the day before {@linkcode BENCH_NOW}. */
export const BENCH_TODAY = BENCH_NOW - 86_400_000;
const YEAR = 365 * 86_400_000;
const EXTENSIONS = [".md", ".txt", ".ts", ".json", ".png", ".log", ".csv", ".pdf", ".js", ".html"];

/** A small seeded PRNG (mulberry32), so every run builds the same tree. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Builds the tree under `root` (which must not exist yet, or be empty) and returns the
 * number of entries made (files and folders). Progress goes to `report`.
 */
export function generateTree(
  root: string,
  shape: TreeShape,
  seed: number,
  report: (done: number) => void = () => {},
): number {
  const random = prng(seed);
  const time = () => new Date(BENCH_NOW - Math.floor(random() * YEAR));
  const empty = new Uint8Array();
  let count = 0;
  const file = (p: string) => {
    Deno.writeFileSync(p, empty);
    const t = time();
    Deno.utimeSync(p, t, t);
    if (++count % 50_000 === 0) report(count);
  };
  const dir = (p: string) => {
    Deno.mkdirSync(p, { recursive: true });
    count++;
  };
  Deno.mkdirSync(root, { recursive: true });
  const name = (i: number) => `f${String(i).padStart(4, "0")}${EXTENSIONS[i % EXTENSIONS.length]}`;
  for (let t = 0; t < shape.top; t++) {
    const top = path.join(root, `t${String(t).padStart(3, "0")}`);
    dir(top);
    for (let d = 0; d < shape.perTop; d++) {
      const folder = path.join(top, `d${String(d).padStart(3, "0")}`);
      dir(folder);
      for (let f = 0; f < shape.files; f++) file(path.join(folder, name(f)));
    }
  }
  let chain = path.join(root, "deep");
  for (let i = 0; i < shape.deepChain; i++) {
    chain = path.join(chain, `level${i}`);
    dir(chain);
    file(path.join(chain, "leaf.md"));
  }
  if (shape.bigDir > 0) {
    const big = path.join(root, "big");
    dir(big);
    for (let i = 0; i < shape.bigDir; i++) {
      file(path.join(big, `item${String(i).padStart(6, "0")}.txt`));
    }
  }
  return count;
}

/**
 * Home-like trees (`home-2m`: 2,000,000 entries): see {@linkcode generateHomeTree}. A
 * `-today` one is made as a fresh clone, an unpack or an `npm install` leaves a tree: every
 * folder's own time within the hour after {@linkcode BENCH_TODAY}, its files one to five years
 * old (contract §18, issue 48: a files-only question prunes by the newest file).
 */
export const HOME_SIZES: Record<string, number> = {
  "home-200k": 200_000,
  "home-2m": 2_000_000,
  "home-2m5-today": 2_000_005,
  /** The issue 49 home: 2,000,006 entries in 183,841 folders, under the 192,536 watches. */
  "home-2m-184k": 2_000_006,
};

/** Folders of a home size that does not have the usual tenth (the folder itself included). */
const HOME_FOLDERS: Record<string, number> = { "home-2m-184k": 183_841 };

const WORDS = ["notes", "photo", "report", "draft", "backup", "invoice", "src", "index", "data"];

/**
 * A tree shaped like a home folder, with exactly `entries` entries: about 10% folders,
 * depth up to 8 with an uneven fan-out (0 to 23 subfolders a folder, about 5 on average),
 * files spread unevenly (most folders hold a few, one in 500 holds thousands), names of
 * ordinary lengths, and a few recent files (1 in 200, within the week before
 * {@linkcode BENCH_NOW}) among many old ones (one to five years old). Folders are laid
 * out breadth first, so every level fills before the next.
 */
export function generateHomeTree(
  root: string,
  entries: number,
  seed: number,
  report: (done: number) => void = () => {},
  /** Folders made "today", files all old (a `-today` size). */
  today = false,
  /** Folders below the root. Default: a tenth of the entries. */
  folderCount = Math.round(entries * 0.1),
): number {
  const random = prng(seed);
  const folders: { path: string; depth: number }[] = [{ path: root, depth: 0 }];
  for (let i = 0; i < folders.length && folders.length <= folderCount; i++) {
    const { path: parent, depth } = folders[i]!;
    if (depth === 8) continue;
    const fanOut = Math.floor(random() * random() * (depth < 2 ? 24 : 21));
    for (let k = 0; k < fanOut && folders.length <= folderCount; k++) {
      const word = WORDS[Math.floor(random() * WORDS.length)]!;
      folders.push({ path: path.join(parent, `${word}-${depth}${k}`), depth: depth + 1 });
    }
  }
  // Files per folder: heavy-tailed weights, scaled to the entries left.
  const weights = folders.map(() => (random() < 0.002 ? 400 : 1) * random() ** 4);
  const sum = weights.reduce((a, b) => a + b, 0);
  const fileCount = entries - (folders.length - 1);
  const counts = weights.map((w) => Math.floor((w / sum) * fileCount));
  let left = fileCount - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % counts.length, left--) counts[i]!++;
  const empty = new Uint8Array();
  const YEARS = 4 * YEAR;
  let made = 0;
  const stamp = (p: string, folder = false) => {
    const recent = !today && random() < 0.005;
    const age = recent ? random() * 7 * 86_400_000 : YEAR + random() * YEARS;
    const t = new Date(
      folder && today
        ? BENCH_TODAY + Math.floor(random() * 3_600_000)
        : BENCH_NOW - Math.floor(age),
    );
    Deno.utimeSync(p, t, t);
    if (++made % 100_000 === 0) report(made);
  };
  Deno.mkdirSync(root, { recursive: true });
  for (const [i, folder] of folders.entries()) {
    if (i > 0) Deno.mkdirSync(folder.path);
    for (let f = 0; f < counts[i]!; f++) {
      const word = WORDS[Math.floor(random() * WORDS.length)]!;
      const file = path.join(folder.path, `${word}_${f}${EXTENSIONS[f % EXTENSIONS.length]}`);
      Deno.writeFileSync(file, empty);
      stamp(file);
    }
  }
  // Folders' own times last (making files in them changed them), deepest first.
  for (let i = folders.length - 1; i > 0; i--) stamp(folders[i]!.path, true);
  return made;
}

/** Makes sure fd is there (Debian's fd-find), installing it if missing. */
export async function ensureFd(): Promise<string> {
  const which = await new Deno.Command("sh", {
    args: ["-c", "command -v fdfind || command -v fd"],
    stdout: "piped",
  })
    .output();
  const found = new TextDecoder().decode(which.stdout).trim();
  if (found) return found;
  console.error("installing fd-find from Debian...");
  await new Deno.Command("sh", {
    args: [
      "-c",
      "apt-get install -y fd-find >/dev/null 2>&1 || (apt-get update >/dev/null && apt-get install -y fd-find >/dev/null)",
    ],
  }).output();
  return "fdfind";
}

/** The tree of `size` under `dir`, built once (a marker file says it is complete). */
export function ensureTree(dir: string, size: string): { root: string; entries: number } {
  const root = path.join(dir, `${size}-seed42`);
  const marker = path.join(dir, `${size}-seed42.done`);
  try {
    return { root, entries: Number(Deno.readTextFileSync(marker)) };
  } catch {
    // build it
  }
  try {
    Deno.removeSync(root, { recursive: true });
  } catch {
    // nothing to clean
  }
  console.error(`building the ${size} tree under ${root}...`);
  const report = (n: number) => console.error(`  ${n} entries`);
  const entries = size in HOME_SIZES
    ? generateHomeTree(
      root,
      HOME_SIZES[size]!,
      42,
      report,
      size.endsWith("-today"),
      HOME_FOLDERS[size] === undefined ? undefined : HOME_FOLDERS[size] - 1,
    )
    : generateTree(root, SHAPES[size]!, 42, report);
  Deno.writeTextFileSync(marker, String(entries));
  return { root, entries };
}
