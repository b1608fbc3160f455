/**
 * A tree with every kind of entry the walk must handle (contract §8): nested and
 * empty folders, dotfiles, non-ASCII and astral-plane names, names that sort around
 * `/`, symlinks (to a file, to a folder, outside the root, dangling, a loop), a FIFO,
 * and random times from a small pool (so ties happen).
 *
 * @module
 */
import path from "node:path";

/** Files (parents are made as needed); contents have random lengths. */
export const ODD_FILES = [
  "a.txt",
  "a-b.txt",
  "a0",
  "B.txt",
  ".hidden",
  "a/x.txt",
  "a/.y",
  "a.b/z.md",
  ".dotdir/x.txt",
  "d1/a.txt",
  "d1/b.md",
  "d1/.env",
  "d1/sub/c.txt",
  "d1/sub/deep/e.md",
  "d1/sub/deep/f.txt",
  "d2/a b.txt",
  "d2/한글.txt",
  "d2/café.md",
  "d2/cafe\u0301.md",
  "d2/😀.txt",
  "d2/sub😀/g.txt",
  "d2/Ünï/ä.txt",
];
/** Empty folders. */
export const ODD_DIRS = ["empty", "d1/sub/deep/void"];
/** Symlinks: path to target; `OUTSIDE` is replaced by a folder outside the root. */
export const ODD_LINKS: Record<string, string> = {
  ln_file: "a.txt",
  ln_dir: "d1",
  ln_out: "OUTSIDE",
  ln_dangling: "no-such-entry",
  loop_a: "loop_b",
  loop_b: "loop_a",
  "d1/sub/ln_up": "../../d2",
  "d2/ln_emoji": "😀.txt",
};
/** The FIFO (not on Windows). */
export const ODD_FIFO = "d2/fifo";

/** A built tree; `dispose()` removes it and the outside folder. */
export interface OddTree {
  root: string;
  /** Every root-relative path in the tree. */
  paths: string[];
  [Symbol.asyncDispose](): Promise<void>;
}

/** Builds the tree in a new temp dir, with random mtimes (links too, where `touch -h` works). */
export async function makeOddTree(): Promise<OddTree> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "fts-diff-" }));
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "fts-diff-out-" }));
  await Deno.writeTextFile(path.join(outside, "secret.txt"), "secret");
  const abs = (rel: string) => path.join(root, ...rel.split("/"));
  const pool = Array.from({ length: 8 }, (_, k) => Date.UTC(2025, 5, 1) + k * 1000 + (k % 3) * 7);
  const time = () => pool[Math.floor(Math.random() * pool.length)]!;
  const paths = new Set<string>();
  const addParents = (rel: string) => {
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) paths.add(parts.slice(0, i).join("/"));
  };
  for (const rel of ODD_FILES) {
    addParents(rel);
    await Deno.mkdir(path.dirname(abs(rel)), { recursive: true });
    await Deno.writeTextFile(abs(rel), "x".repeat(Math.floor(Math.random() * 20)));
    paths.add(rel);
  }
  for (const rel of ODD_DIRS) {
    addParents(rel);
    await Deno.mkdir(abs(rel), { recursive: true });
    paths.add(rel);
  }
  const windows = Deno.build.os === "windows";
  if (!windows) {
    const fifo = await new Deno.Command("mkfifo", { args: [abs(ODD_FIFO)] }).output();
    if (!fifo.success) throw new Error("mkfifo failed");
    paths.add(ODD_FIFO);
  }
  for (const [rel, target] of Object.entries(ODD_LINKS)) {
    await Deno.symlink(target === "OUTSIDE" ? outside : target, abs(rel));
    paths.add(rel);
    // Deno.utime follows links; GNU touch -h sets the link's own time.
    const seconds = (time() / 1000).toFixed(3);
    if (!windows) {
      await new Deno.Command("touch", { args: ["-h", "-m", "-d", `@${seconds}`, abs(rel)] })
        .output().catch(() => undefined);
    }
  }
  const timed = [...paths].filter((p) => !(p in ODD_LINKS));
  timed.sort((a, b) => b.split("/").length - a.split("/").length); // deepest first
  for (const rel of timed) {
    const t = new Date(time());
    await Deno.utime(abs(rel), t, t);
  }
  const dispose = async () => {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  };
  return { root, paths: [...paths].sort(), [Symbol.asyncDispose]: dispose };
}
