/**
 * docs/examples.md is what the server really answers to the requests it shows: the
 * requests are sent again, as printed, and the answers compared, apart from the values
 * that change by nature (creation times, elapsed time, the server's clock).
 */
import assert from "node:assert/strict";
import { render } from "../docs/examples.ts";

/** Blanks what differs from run to run. */
function stable(markdown: string): string {
  return markdown
    .replace(/"(createdAt|serverTime)": "[^"]*"/g, '"$1": "…"')
    .replace(/\\"serverTime\\":\\"[^"\\]*\\"/g, '\\"serverTime\\":\\"…\\"')
    .replace(/\\"createdAt\\":\\"[^"\\]*\\"/g, '\\"createdAt\\":\\"…\\"')
    .replace(/elapsedMs\\?"?: ?\d+/g, "elapsedMs: …")
    // What the process and its index hold in memory.
    .replace(/(memoryBytes|rssBytes|heapBytes)\\?"?: ?\d+/g, "$1: …")
    .replace(/Server time: [0-9T:.\-]+Z \([^)]*\)/g, "Server time: …")
    // Instants counted from now: windows from within/period, the file written just now.
    .replace(/("(from|to|modifiedAt)": )"(?!2025-)[^"]*"/g, '$1"…"')
    .replace(/(\\"(from|to|modifiedAt)\\":)\\"(?!2025-)[^"\\]*\\"/g, '$1\\"…\\"')
    .replace(/Window: (since|from) (?!2025-)[^.]*\./g, "Window: …")
    // Clocks name the server run (a random id) and when they were given; changes since one
    // given now are since now.
    .replace(/fts2\.(?!00000000abcd)[0-9a-f]{12}\.[0-9a-z.\-]+/g, "fts2.…")
    .replace(/("since\\?": ?\\?")(?!2025-)[^"\\]*/g, "$1…")
    .replace(/since (?!2025-)[0-9-]+ [0-9:]+ local time/g, "since … local time")
    // When the background check's last round began and ended: said as each round ends, so
    // whether a listing of the roots has them yet depends on timing.
    .replace(/\n *"(checkedWhole|checkEnded)": "[^"]*",?/g, "")
    .replace(/\\"(checkedWhole|checkEnded)\\":\\"[^"\\]*\\",?/g, "")
    // Cursors carry when their paging sequence began.
    .replace(/("(next)?[cC]ursor\\?": ?\\?")[A-Za-z0-9_-]+/g, "$1…");
}

Deno.test({
  name: "docs/examples.md matches what the server answers now",
  ignore: Deno.build.os === "windows",
  async fn() {
    const printed = await Deno.readTextFile(new URL("../docs/examples.md", import.meta.url));
    assert.equal(stable(await render()), stable(printed));
  },
});
