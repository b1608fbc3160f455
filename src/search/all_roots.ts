/**
 * `root: "*"` (contract §26): every allowed root in one call. Each root is searched with the
 * call's arguments (its own paging, index and snapshots), the window resolved once for all of
 * them; their pages are merged in the requested order (ties by root order, then path), each
 * match naming its root; the cursor carries each root's own cursor, cut where the merged page
 * stopped taking that root's matches, and how many matches the pages so far gave.
 *
 * @module
 */
import { ToolError } from "../errors.ts";
import { formatTime, type RootKey, rootsOrder } from "../query/mod.ts";
import {
  decodeSetCursor,
  encodeCursor,
  encodeSetCursor,
  type SetPosition,
} from "../query/calls/mod.ts";
import { parseArguments } from "../query/arguments/mod.ts";
import type { ScanProgress } from "../walk/mod.ts";
import {
  type MatchOutput,
  type SearchDeps,
  searchOneRoot,
  type SearchOutput,
  type SearchResult,
} from "./one_root.ts";

/** A root's start path may be missing from some roots: they are left out of the set. */
const NOT_THERE = new Set(["PathNotFound", "SymlinkEscapeDetected", "AccessDenied"]);

/** Searches every root (`args.root` is `"*"`). */
export async function searchAllRoots(
  args: Record<string, unknown>,
  deps: SearchDeps,
  signal?: AbortSignal,
  onProgress?: (progress: ScanProgress) => void,
  onAnswered?: (by: string) => void,
): Promise<SearchResult> {
  const { roots } = deps.config;
  const started = deps.clock.now();
  // The first root's check is every root's (the same arguments), and resolves the window.
  const { cursor, within: _w, period: _p, from: _f, to: _t, ...rest } = args;
  const first = parseArguments(
    { ...args, root: roots[0]!.path, ...(typeof cursor === "string" ? { cursor: undefined } : {}) },
    deps.config,
    deps.guard,
    started,
  ).request;
  const sort = first.order;
  const set: SetPosition | null = typeof cursor === "string"
    ? decodeSetCursor(cursor, sort, roots.length)
    : null;
  const from = set ? set.from : first.filter.from;
  const to = set ? set.to : first.filter.to;
  const pinned = {
    ...rest,
    ...(from === null ? {} : { from: formatTime(from) }),
    ...(to === null ? {} : { to: formatTime(to) }),
  };
  const own = set?.roots ?? roots.map(() => "");
  const each = { ...deps, maxResultChars: undefined, wordsRoom: undefined };
  const settled = await Promise.allSettled(
    roots.map((root, i) =>
      own[i] === null ? Promise.resolve(null) : searchOneRoot(
        { ...pinned, root: root.path, ...(own[i] ? { cursor: own[i] } : {}) },
        each,
        signal,
        onProgress,
        onAnswered,
      )
    ),
  );
  const results = settled.map((s) => s.status === "fulfilled" ? s.value : null);
  const failed = settled.flatMap((s) => s.status === "rejected" ? [s.reason] : []);
  // A start path that some roots lack leaves them out; anything else is the call's error.
  const fatal = failed.find((e) => !(e instanceof ToolError && NOT_THERE.has(e.code)));
  if (fatal !== undefined) throw fatal;
  if (results.every((r) => r === null) && failed.length > 0) throw failed[0];

  const order = rootsOrder(sort);
  const field = first.filter.timeField;
  const tagged = results.flatMap((r, i) =>
    (r?.output.matches ?? []).map((match) => ({ match, i, key: keyOf(match, i, field) }))
  ).sort((a, b) => order(a.key, b.key));
  // A root's page cut short by a server limit holds matches in walk order (contract §11): it
  // is taken whole or not at all, or a later page would lose what it had not taken.
  const partial = results.map((r) => r?.output.stats.truncated === true);
  const take = (n: number) => {
    const taken: typeof tagged = [];
    const done = new Set<number>();
    for (const t of tagged) {
      if (done.has(t.i)) continue;
      const group = partial[t.i] ? tagged.filter((u) => u.i === t.i) : [t];
      if (taken.length + group.length > n) break;
      taken.push(...group);
      if (partial[t.i]) done.add(t.i);
    }
    return taken;
  };
  const build = (n: number) => {
    const taken = take(n);
    const next = roots.map((_, i) => {
      const r = results[i];
      if (!r) return null; // done before, or not there
      const mine = taken.filter((t) => t.i === i);
      if (mine.length === r.output.matches.length) return r.output.nextCursor;
      if (mine.length === 0) return own[i]!;
      // After the last it gave, resuming where that root's own page resumed (paging.ts).
      const last = mine[mine.length - 1]!.key;
      const boundary = r.request.after?.boundary ?? null;
      return encodeCursor(
        sort,
        { key: { time: last.time, path: last.path }, boundary },
        r.queryHash,
      );
    });
    const more = next.some((c) => c !== null);
    const counted = (set?.counted ?? 0) + taken.length;
    const nextCursor = more ? encodeSetCursor(sort, { roots: next, from, to, counted }) : null;
    return { taken, nextCursor, counted };
  };
  /** The page of the first `n` matches; `elapsed`: the time to say (default: so far). */
  const output = (n: number, elapsed = Math.max(0, deps.clock.now() - started)): SearchOutput => {
    const { taken, nextCursor, counted } = build(n);
    const sum = (pick: (o: SearchOutput["stats"]) => number | undefined) =>
      results.reduce((acc, r) => acc + (r ? pick(r.output.stats) ?? 0 : 0), 0);
    const live = results.filter((r) => r !== null);
    const totals = live.map((r) => r!.output.stats.totalMatches);
    const total = set === null && totals.every((t) => t !== undefined)
      ? totals.reduce((a, b) => a! + b!, 0)
      : nextCursor === null
      ? counted
      : undefined;
    const stats: SearchOutput["stats"] = {
      scannedFiles: sum((s) => s.scannedFiles),
      scannedDirectories: sum((s) => s.scannedDirectories),
      returned: taken.length,
      truncated: live.some((r) => r!.output.stats.truncated),
      ...(sum((s) => s.skipped) > 0 ? { skipped: sum((s) => s.skipped) } : {}),
      elapsedMs: elapsed,
      ...(field === "created" ? { unknownTime: sum((s) => s.unknownTime) } : {}),
      ...(total === undefined
        ? { matchesAtLeast: taken.length + (nextCursor !== null ? 1 : 0) }
        : { totalMatches: total }),
      ...(live.some((r) => r!.output.stats.excluded !== undefined)
        ? { excluded: sum((s) => s.excluded) }
        : {}),
    };
    return {
      timeField: field,
      range: {
        from: from === null ? null : formatTime(from),
        to: to === null ? null : formatTime(to),
      },
      matches: taken.map(({ match, i }) => ({ ...match, root: roots[i]!.path })),
      nextCursor,
      stats,
    };
  };
  // The merged page, cut (at least one match) so that the whole answer fits (contract §16).
  let n = Math.min(first.limit, tagged.length);
  const max = deps.maxResultChars;
  if (max !== undefined) {
    const room = 16 + (deps.wordsRoom?.(first) ?? 0);
    // The time taken at its widest: what fits does not depend on a busy machine.
    const fits = (k: number) =>
      JSON.stringify(output(k, Number.MAX_SAFE_INTEGER)).length <= max - room;
    if (n > 1 && !fits(n)) {
      let [lo, hi] = [1, n - 1];
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (fits(mid)) lo = mid;
        else hi = mid - 1;
      }
      n = lo;
    }
  }
  const hung = results.some((r) => r?.hung === "now")
    ? "now"
    : results.some((r) => r?.hung === "before")
    ? "before"
    : null;
  return {
    output: output(n),
    request: { ...first, after: set === null ? null : { key: null, boundary: null } },
    cutForSize: take(n).length < take(Math.min(first.limit, tagged.length)).length,
    hung,
    queryHash: "*", // each root's own query is in its part of the cursor
    roots: roots.map((r) => r.path),
    vcs: results.reduce((sum, r) => sum + (r?.vcs ?? 0), 0),
  };
}

/** A match's place in the merged order. */
function keyOf(match: MatchOutput, root: number, field: "modified" | "created"): RootKey {
  const time = field === "modified" ? match.modifiedAt : match.createdAt;
  return { time: time === null ? null : Date.parse(time), path: match.path, root };
}
