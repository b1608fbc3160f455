/**
 * The command line's own words (contract §21-§23): `--within`, `--period`, `--min-size` and
 * `--max-size`, messages that name its flags and its 'Next page:' command, and `--help`
 * whose common questions work as pasted.
 */
import assert from "node:assert/strict";
import { inCliWords } from "../../src/cli/flags.ts";
import { parseSize } from "../../src/cli/size.ts";
import { SERVER_ARGS } from "../helpers/server.ts";
import { runDeno } from "../helpers/spawn.ts";
import { makeTree, T0 } from "../helpers/tree.ts";

const MINUTE = 60_000;

function cli(args: string[], env: Record<string, string> = {}) {
  return runDeno([...SERVER_ARGS, ...args], { env: { NO_COLOR: "1", ...env } });
}
const files = (stdout: string) => [...stdout.matchAll(/^(\S+)\s+file\s/gm)].map((m) => m[1]);

Deno.test("cli --within and --period: by the real clock, in the machine's time zone", async () => {
  const now = Date.now();
  await using tree = await makeTree({
    "recent.md": { mtime: now - 30 * MINUTE },
    "older.md": { mtime: now - 120 * MINUTE },
    "old.md": { mtime: T0 },
  });
  const hour = await cli(["search", tree.root, "--within", "1h"]);
  assert.equal(hour.code, 0, hour.stderr);
  assert.deepEqual(files(hour.stdout), ["recent.md"]);
  const iso = await cli(["search", tree.root, "--within", "PT3H"]);
  assert.deepEqual(files(iso.stdout), ["recent.md", "older.md"]);
  const year = await cli(["search", tree.root, "--period", "this_year"], { TZ: "Asia/Seoul" });
  assert.equal(year.code, 0, year.stderr);
  assert.match(
    year.stdout,
    /Window: from \d{4}-01-01 00:00 to \d{4}-01-01 00:00 local time\./,
  );
  const bad = await cli(["search", tree.root, "--period", "this-week"]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^ErrorCode: InvalidEnum\nMessage: --period must be one of /);
  const clash = await cli(["search", tree.root, "--within", "1h", "--period", "today"]);
  assert.equal(clash.code, 1);
  assert.match(clash.stderr, /--within/);
  assert.match(clash.stderr, /--period/);
  assert.doesNotMatch(clash.stderr, /'within'|'period'/);
});

Deno.test("cli --min-size and --max-size: fd's units, min inclusive, max exclusive", async () => {
  await using tree = await makeTree({
    "small.bin": { mtime: T0, content: "x".repeat(9_999) },
    "ten.bin": { mtime: T0 + 1, content: "x".repeat(10_000) },
    "kibi.bin": { mtime: T0 + 2, content: "x".repeat(10_240) },
  });
  const atLeast = async (...flags: string[]) => {
    const { code, stdout, stderr } = await cli(["search", tree.root, ...flags]);
    assert.equal(code, 0, stderr);
    return files(stdout);
  };
  assert.deepEqual(await atLeast("--min-size", "10k"), ["kibi.bin", "ten.bin"]);
  assert.deepEqual(await atLeast("--min-size", "10KiB"), ["kibi.bin"]);
  assert.deepEqual(await atLeast("--max-size", "10000"), ["small.bin"]);
  assert.deepEqual(await atLeast("--min-size", "10kb", "--max-size", "10ki"), ["ten.bin"]);
  for (const value of ["10x", "-5", "1.5M", "M"]) {
    const { code, stderr } = await cli(["search", tree.root, `--min-size=${value}`]);
    assert.equal(code, 2, stderr);
    assert.match(
      stderr,
      /^ErrorCode: InvalidArgument\nMessage: --min-size needs a size such as 10k/,
    );
  }
});

Deno.test("parseSize: bytes, powers of 1000 and of 1024, any case; nothing else", () => {
  assert.equal(parseSize("12"), 12);
  assert.equal(parseSize("12b"), 12);
  assert.equal(parseSize("10k"), 10_000);
  assert.equal(parseSize("5M"), 5_000_000);
  assert.equal(parseSize("1G"), 1_000_000_000);
  assert.equal(parseSize("2t"), 2e12);
  assert.equal(parseSize("5Mi"), 5 * 1024 ** 2);
  assert.equal(parseSize("1gib"), 1024 ** 3);
  for (const bad of ["", "k", "1.5k", "-1", "10 kb", "1e3", "5Mo", "99999999999999999999"]) {
    assert.equal(parseSize(bad), null, bad);
  }
});

Deno.test("cli messages name its flags and its 'Next page:' command, not the tool's arguments", async () => {
  await using tree = await makeTree({
    "a.md": { mtime: T0 },
    "b.md": { mtime: T0 + 1 },
    "docs/c.md": { mtime: T0 },
  });
  const paged = await cli(["search", tree.root, "-n", "1"]);
  assert.match(paged.stdout, /More results: run the 'Next page:' command below\.\nNext page: /);
  assert.doesNotMatch(paged.stdout, /nextCursor|'cursor'/);
  const nothing = await cli(["search", tree.root, "--no-files"]);
  assert.match(
    nothing.stdout,
    /--no-files is given without --dirs, so nothing can match: add --dirs/,
  );
  const below = await cli(["search", tree.root, "--path", "docs", "-g", "*.md"]);
  assert.match(
    below.stdout,
    /not the part below --path: with path 'docs', try glob 'docs\/\*\.md'/,
  );
  const cursor = await cli(["search", tree.root, "--cursor", "bm90IGEgY3Vyc29y"]);
  assert.equal(cursor.code, 1);
  assert.doesNotMatch(cursor.stderr, /nextCursor|'cursor'/);
  assert.match(cursor.stderr, /--cursor/);
  assert.equal(
    inCliWords("Set 'from' <= 'to'; set includeUnknownTime, not 'modified'."),
    "Set --from <= --to; set --include-unknown-time, not 'modified'.",
  );
});

Deno.test("cli --help: the common questions run as pasted", async () => {
  await using tree = await makeTree({ "docs/a.md": { mtime: Date.now() - MINUTE } });
  const help = await cli(["--help"]);
  assert.equal(help.code, 0);
  const section = help.stdout.split("Common questions:\n")[1]!.split("\n\n")[0]!;
  const commands = section.split("\n").map((line) => line.slice(line.indexOf("file-time-search")));
  assert.ok(commands.length >= 5, section);
  for (const command of commands) {
    const words = [...command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    assert.ok(["search", "changes"].includes(words[1]!), command);
    assert.deepEqual([words[0], words[2]], ["file-time-search", "~/Documents"]);
    const ran = await cli([words[1]!, tree.root, ...words.slice(3)]);
    assert.equal(ran.code, 0, `${command}\n${ran.stderr}`);
    assert.match(
      ran.stdout,
      /^(Found \d+ (file|files|entry|entries) |\d+ (entry|entries) modified or created )/m,
      command,
    );
  }
});
