/**
 * `file-time-search changes <root> --since <clock|time|duration>`: the twin of
 * `fs.changes_since` (contract §24) for people, a table of what changed and the clock to
 * pass next time. One run of the command line has no index and no journal before it, so
 * every answer is a fresh instance (what times can say, no removals), and says so.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { localTime, serverTimeZone } from "../query/mod.ts";
import {
  changesSaid,
  changesSince,
  type ChangesStructured,
  changesStructured,
  newRunId,
} from "../changes/mod.ts";
import { lineOf } from "../presentation.ts";
import { CLI_WORDS, FlagError, type FlagValues, PARSE_OPTIONS, toolArguments } from "./flags.ts";
import { type CliIo, onFolders, shellQuote, usageError } from "./cli_io.ts";
import { CHANGES_USAGE } from "./usage.ts";

/** The search flags a changes call takes (the others are a search's alone). */
const TAKES = new Set([
  "path",
  "glob",
  "case-sensitive",
  "ignore-case",
  "dirs",
  "no-files",
  "limit",
  "cursor",
  "exclude",
  "respect-ignore-files",
  "include-vcs",
  "expand",
]);

/** Runs `changes` with `argv` (after the command's name); returns the exit status. */
export async function runChangesCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...PARSE_OPTIONS, since: { type: "string" } },
      allowPositionals: true,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return usageError(io, message.split(". ")[0]!.replace(/\.?$/, "."));
  }
  const { positionals } = parsed;
  const values = parsed.values as FlagValues & { since?: string };
  if (values.help) {
    io.out(CHANGES_USAGE + "\n");
    return 0;
  }
  const other = Object.keys(values).find((name) =>
    !TAKES.has(name) && !["since", "json", "utc", "help"].includes(name)
  );
  if (other !== undefined) return usageError(io, `'changes' does not take --${other}.`);
  if (positionals.length !== 1) return usageError(io, "Give exactly one <root> folder.");
  if (typeof values.since !== "string") {
    return usageError(io, "Give --since: a clock printed by an earlier run, a time or a duration.");
  }
  let args: Record<string, unknown>;
  try {
    const { timeField: _, ...rest } = toolArguments(values);
    args = { ...rest, since: values.since };
  } catch (err) {
    if (!(err instanceof FlagError)) throw err;
    return usageError(io, err.message);
  }
  const since = values.since;
  return await onFolders(io, positionals, async (config, pager) => {
    const deps = {
      config,
      pager,
      clock: io.clock,
      run: newRunId(),
      journals: null,
      noJournal: "one run of the command line keeps no journal of changes",
    };
    const result = await changesSince(args, deps);
    const { structured } = changesStructured(result, io.clock.now());
    if (values.json) return JSON.stringify(structured, null, 2) + "\n";
    const again = (flag: string, value: string) =>
      [io.program, ...["changes", ...positionals, flag, value].map(shellQuote)].join(" ");
    const lines = table(structured, values.utc === true);
    lines.push(lineOf(changesSaid(result, CLI_WORDS), null));
    if (structured.nextCursor !== null) {
      lines.push(`Next page: ${again("--since", since)} --cursor ${structured.nextCursor}`);
    }
    lines.push(`Next time: ${again("--since", structured.clock)}`);
    return lines.join("\n") + "\n";
  });
}

/** The changes as an aligned table: change, kind, modified time, path (and where from). */
function table(output: ChangesStructured, utc: boolean): string[] {
  const zone = utc ? "UTC" : serverTimeZone();
  const minute = (iso: string | null) =>
    iso === null
      ? "-"
      : utc
      ? iso.slice(0, 16).replace("T", " ")
      : localTime(Date.parse(iso), zone).time;
  const rows = output.changes.map((c) => [
    c.change,
    c.isDirectory ? "dir" : "file",
    minute(c.modifiedAt),
    c.previousPath === undefined ? c.path : `${c.path} (was ${c.previousPath})`,
  ]);
  if (rows.length === 0) return [];
  const header = ["CHANGE", "KIND", `MODIFIED (${zone})`, "PATH"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(header), ...rows.map(line)];
}
