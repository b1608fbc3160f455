/**
 * A split scan's progress as one (contract §19): each share reports what it covered of
 * its own entries; together they have dealt with every entry up to the smallest of their
 * boundaries, and have visited the sum of what each visited (the scanner tells it only when
 * that sum grew: a share may report after reading listings only).
 *
 * @module
 */
import type { ScanProgress } from "../walk/mod.ts";
import { comparePaths } from "../query/mod.ts";

/** One progress callback per share, each telling `onProgress` the shares' progress together. */
export function sharesProgress(
  count: number,
  onProgress: (progress: ScanProgress) => void,
): ((progress: ScanProgress) => void)[] {
  const last: (ScanProgress | null)[] = Array(count).fill(null);
  return last.map((_, i) => (progress: ScanProgress) => {
    last[i] = progress;
    const all = last.filter((p) => p !== null);
    const scanned = all.reduce((sum, p) => sum + p.scanned, 0);
    const bounds = all.map((p) => p.boundary);
    const boundary = all.length < count || bounds.includes(null)
      ? null
      : bounds.reduce((a, b) => (b! < a! ? b : a));
    const walkPrefix = boundary === null ? [] : all.flatMap((p) => p.walkPrefix)
      .filter((m) => m.path <= boundary).sort((a, b) => comparePaths(a.path, b.path));
    onProgress({
      scanned,
      files: all.reduce((sum, p) => sum + p.files, 0),
      directories: all.reduce((sum, p) => sum + p.directories, 0),
      boundary,
      walkPrefix,
    });
  });
}
