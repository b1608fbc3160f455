/**
 * The command line's help text, with the common questions as commands to paste.
 *
 * @module
 */

/** The help text (`file-time-search --help`). */
export const USAGE = `file-time-search: find files by modified or created time.

Usage:
  file-time-search                       run the MCP server on stdio (set ALLOW_ROOTS)
  file-time-search serve <folder>...     run the MCP server on stdio for these folders
  file-time-search search <root> [options]
  file-time-search changes <root> --since <clock|time|duration> [options]
  file-time-search --help | --version

Common questions:
  what changed in the last 24 hours      file-time-search search ~/Documents --within 24h
  what changed today                     file-time-search search ~/Documents --period today
  the ten newest Markdown files          file-time-search search ~/Documents -g '**/*.md' -n 10
  big files changed this week            file-time-search search ~/Documents --period this_week --min-size 100M
  folders created last month             file-time-search search ~/Documents -t created --period last_month --dirs --no-files
  what changed in December 2025 (UTC)    file-time-search search ~/Documents --from 2025-12-01T00:00:00Z --to 2026-01-01T00:00:00Z
  what was created or changed since 2h   file-time-search changes ~/Documents --since 2h

Search options (the fs.search_by_time arguments):
  -t, --time-field modified|created      default: modified
      --path <relative path>             start below the root
      --within <duration>                changed in the last ...: 24h, 90min, 7d, 2weeks, 1mo, 1y
                                         ('m' is minutes, 'mo' months), or ISO 8601: PT24H, P7D
      --period <name>                    a calendar period in this machine's time zone: today,
                                         yesterday, this_week, last_week (weeks start on Monday),
                                         this_month, last_month, this_year, last_year
      --from <date-time>                 inclusive, RFC 3339, e.g. 2025-12-01T00:00:00Z
      --to <date-time>                   exclusive (with --from, or with --within to end it)
  -g, --glob <pattern>                   matched against the root-relative path: '**/*.md'
      --case-sensitive                   match --glob and --exclude case exactly; by default
  -i, --ignore-case                      one with no upper-case letter matches any case (fd's)
      --no-recursive                     only the direct children
      --max-depth <n>                    0 = the start path only
      --dirs                             include folders
      --no-files                         leave files out
      --min-size <size>                  files at least this big: 500k, 10M, 1G (powers of 1000),
                                         10Mi (of 1024), or bytes; folders never match a size
      --max-size <size>                  files smaller than this
  -s, --sort time_desc|time_asc|path_asc default: time_desc
  -n, --limit <1..1000>                  default: 100
      --cursor <cursor>                  continue from a previous page
      --include-unknown-time             with created: also entries without one
  -x, --exclude <glob>                   leave matching entries out (repeatable): a name with no
                                         '/' at any depth ('node_modules'), else from the root
      --respect-ignore-files             leave out what .gitignore/.ignore say, and .git
      --include-vcs                      also list what is inside .git, .hg, .svn and .jj
                                         folders (left out by default; the folders are listed)
      --json                             print the tool's structured result as JSON
      --utc                              show the table's times in UTC

Changes options (fs.changes_since; 'file-time-search changes --help' for more):
--since <clock|time|duration>, --expand, and --path, -g, -x, --respect-ignore-files,
--include-vcs, --dirs, --no-files, -n, --cursor, --json, --utc as above.

Times in the table are in this machine's time zone (TZ), named in the header, or UTC with
--utc; --within, --period and the window line use the same zone. Exit status: 0 found (or
nothing found), 1 the search was refused (ErrorCode on stderr), 2 bad usage or configuration.`;

/** The help text of `changes` (`file-time-search changes --help`). */
export const CHANGES_USAGE =
  `file-time-search changes: what was created, modified, renamed or removed since then.

Usage:
  file-time-search changes <root> --since <clock|time|duration> [options]

Examples:
  what changed in the last 2 hours       file-time-search changes ~/project --since 2h
  what changed since this morning        file-time-search changes ~/project --since 2026-11-26T09:00:00+09:00
  what changed since the last run        file-time-search changes ~/project --since <the clock it printed>
  only Markdown files, under docs/       file-time-search changes ~/project --since 1d --path docs -g 'docs/**/*.md'

Options:
      --since <clock|time|duration>      a clock printed by an earlier run ('Next time:'), an
                                         RFC 3339 date-time with an offset, or 2h, 7d, 2weeks
      --path <relative path>             only changes at or under this folder of the root
  -g, --glob <pattern>                   matched against the root-relative path: '**/*.md'
  -x, --exclude <glob>                   leave matching entries out (repeatable)
      --respect-ignore-files             leave out what .gitignore/.ignore say, and .git
      --include-vcs                      also list changes inside .git, .hg, .svn and .jj
      --dirs                             include folders (a folder moved or removed as a whole
                                         is then one line, with how many entries it held)
      --expand                           with --dirs: every entry of such a folder, one by one
      --no-files                         leave files out
  -n, --limit <1..1000>                  default: 100
      --cursor <cursor>                  continue from a previous page
      --json                             print the tool's structured result as JSON
      --utc                              show the table's times in UTC

One run of the command line keeps no journal before it: it lists what was modified or
created since then, and cannot name what was removed or renamed (the MCP server, which keeps
a journal of changes while it runs, can). It prints the clock to pass next time.`;
