/**
 * `deno task bench:index-diff <folder>`: the differential run of the live index on a real
 * tree (contract §18): two servers on the same folder, `INDEX=on` (once ready) and
 * `INDEX=off`, asked the same questions (every sort; windows by year, open-ended windows
 * with folders and a glob, created times with unknown ones, `within`, `period`, a `path`),
 * each paged to the end; every page must be the same but for what differs by nature (the
 * time taken, the counts of what was examined, and the instant `within` counts back from).
 * Run it on a copy (`cp -a /usr/share /tmp/share`): nothing must change during the run.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SERVER_FLAGS } from "../src/runtime_flags.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const root = Deno.args[0];
if (root === undefined) throw new Error("usage: deno task bench:index-diff <folder>");

interface Page {
  range: unknown;
  nextCursor: string | null;
  stats: Record<string, unknown>;
}

async function server(index: "on" | "off"): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...SERVER_FLAGS, MAIN, "serve", root!],
    env: { INDEX: index, TZ: "UTC" },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-index-diff", version: "0" });
  await client.connect(transport);
  return client;
}

const on = await server("on");
const off = await server("off");
for (;;) {
  const listed = await on.callTool({ name: "fs.list_roots", arguments: {} });
  const index = (listed.structuredContent as { roots: { index: { state: string } }[] }).roots[0]!
    .index;
  if (index.state === "ready") break;
  if (index.state === "off") throw new Error(`the index is off: ${JSON.stringify(index)}`);
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const queries: Record<string, unknown>[] = [];
for (const y of [2010, 2015, 2018, 2020, 2022, 2023, 2024, 2025, 2026]) {
  for (const sort of ["time_desc", "time_asc", "path_asc"]) {
    const year = { from: `${y}-01-01T00:00:00Z`, to: `${y + 1}-01-01T00:00:00Z` };
    queries.push({ timeField: "modified", ...year, sort, limit: 50 });
    queries.push({
      timeField: "modified",
      from: `${y}-06-01T00:00:00Z`,
      sort,
      limit: 200,
      includeDirectories: true,
      glob: "**/*.gz",
    });
    queries.push({
      timeField: "created",
      to: `${y}-01-01T00:00:00Z`,
      sort,
      limit: 100,
      includeUnknownTime: true,
    });
  }
}
queries.push({ timeField: "modified", within: "3650d", limit: 500 });
queries.push({ timeField: "modified", period: "this_year", limit: 500 });

/**
 * A summary without its count, in any of its wordings (contract §4): the sentence up to
 * "(sorted by …)." and, where it follows, "; the total was not counted.".
 */
function uncounted(summary: string | undefined): string | undefined {
  return summary?.replace(/^.*?\(sorted by [^)]*\)(; the total was not counted)?\./, "…");
}

/**
 * A page without what differs by nature: the time taken, the counts of what was examined,
 * the clock (each server's own run), the server's time, and `totalMatches` (with its words in
 * the summary and notes) unless the indexed page gives it (`counted`: contract §18, given when
 * known); the cursor by the path it resumes after.
 */
function comparable(
  page: Page | undefined,
  query: Record<string, unknown>,
  counted: boolean,
): string {
  if (page === undefined) return "no structured result";
  const cursor = page.nextCursor &&
    JSON.parse(atob(page.nextCursor.replaceAll("-", "+").replaceAll("_", "/"))).p;
  // Where the index did not count, it gives a lower bound instead (§11): not compared.
  const { totalMatches, matchesAtLeast: _bound, ...stats } = page.stats;
  const { serverTime: _now, localTime: _local, summary, notes, ...rest } = page as
    & Page
    & Record<string, unknown>
    & { summary?: string; notes?: { code: string; message: string }[] };
  return JSON.stringify({
    ...rest,
    // An uncounted total is said in words too (the summary's "more than", TotalNotCounted):
    // left out with the count itself, all else in both compared.
    summary: counted ? summary : uncounted(summary),
    notes: counted ? notes : notes?.filter((note) => !NOT_COUNTED.has(note.code)),
    range: query.within === undefined ? page.range : null,
    nextCursor: cursor,
    clock: null, // each server names its own run (contract §24)
    stats: {
      ...stats,
      ...(counted ? { totalMatches } : {}),
      elapsedMs: 0,
      scannedFiles: 0,
      scannedDirectories: 0,
    },
  }).replace(/Server time: [^)]*\)/g, "Server time: …"); // when each was asked
}

const NOT_COUNTED = new Set(["TotalNotCounted", "LastPageNotCounted"]);
let pages = 0;
let differences = 0;
for (const query of queries) {
  const cursors: (string | null)[] = [null, null];
  for (let page = 0; page < 50; page++) {
    const [a, b] = await Promise.all([on, off].map((client, i) =>
      client.callTool({
        name: "fs.search_by_time",
        arguments: { ...query, ...(cursors[i] ? { cursor: cursors[i] } : {}) },
      })
    ));
    const [pa, pb] = [a!, b!].map((r) => r.structuredContent as Page | undefined);
    pages++;
    const counted = pa?.stats.totalMatches !== undefined;
    const [ca, cb] = [pa, pb].map((p) => comparable(p, query, counted)) as [string, string];
    if (ca !== cb) {
      differences++;
      let at = 0;
      while (ca[at] === cb[at]) at++;
      console.log(`different: ${JSON.stringify(query)}, page ${page + 1}`);
      console.log(`  indexed: …${ca.slice(Math.max(0, at - 80), at + 120)}`);
      console.log(`  walked:  …${cb.slice(Math.max(0, at - 80), at + 120)}`);
      break;
    }
    cursors[0] = pa?.nextCursor ?? null;
    cursors[1] = pb?.nextCursor ?? null;
    if (cursors[0] === null) break;
  }
}
console.log(`${queries.length} questions, ${pages} pages compared, ${differences} different.`);
await on.close();
await off.close();
