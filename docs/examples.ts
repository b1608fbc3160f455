/**
 * Builds docs/examples.md from the running server: each request is sent as a raw
 * JSON-RPC line on stdin, exactly as printed, and the answers are captured as they come.
 * `deno task examples` rewrites the file; tests/docs_examples_test.ts checks it is current.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import path from "node:path";
import { ALLOW_ENV, ALLOW_WRITE, V8_FLAGS } from "../src/runtime_flags.ts";
import { rootTag } from "../src/changes/clock.ts";

/** The folder the examples search; always the same, so cursors come out the same. */
export const EXAMPLE_ROOT = path.join(
  path.parse(Deno.cwd()).root,
  "tmp",
  "file-time-search-examples",
  "Documents",
);

const FILES: Record<string, string> = {
  "notes/2025-12-01 standup.md": "2025-12-01T09:30:00Z",
  "notes/2025-12-08 standup.md": "2025-12-08T09:30:00Z",
  "notes/ideas.md": "2025-12-10T21:15:00Z",
  "projects/site/index.html": "2025-11-20T14:00:00Z",
  "projects/site/style.css": "2025-12-09T16:45:00Z",
  "reports/q4.pdf": "2025-12-12T08:00:00Z",
  "todo.txt": "2025-12-14T07:05:00Z",
};

/** Makes the example folder afresh, with fixed contents and times (at `root`, for tests). */
export async function makeExampleTree(root: string = EXAMPLE_ROOT): Promise<void> {
  await Deno.remove(root, { recursive: true }).catch(() => {});
  for (const [rel, mtime] of Object.entries(FILES)) {
    const file = path.join(root, ...rel.split("/"));
    await Deno.mkdir(path.dirname(file), { recursive: true });
    await Deno.writeTextFile(file, `${rel}\n`);
    await Deno.utime(file, new Date(mtime), new Date(mtime));
  }
  // Folders get fixed times too, deepest first (making children changed them).
  const folders = new Set<string>();
  for (const rel of Object.keys(FILES)) {
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  const FOLDER_TIME = new Date("2025-12-14T07:00:00Z");
  for (const rel of [...folders].sort((a, b) => b.length - a.length)) {
    await Deno.utime(path.join(root, ...rel.split("/")), FOLDER_TIME, FOLDER_TIME);
  }
  // One big file written just now, for the windows relative to now and the size filter.
  const scan = path.join(root, ...JUST_NOW.split("/"));
  await Deno.mkdir(path.dirname(scan), { recursive: true });
  await Deno.writeFile(scan, new Uint8Array(0));
  await Deno.truncate(scan, JUST_NOW_BYTES);
  await Deno.utime(path.dirname(scan), FOLDER_TIME, FOLDER_TIME);
}

/** The file written when the examples run (its time changes from run to run). */
const JUST_NOW = "scans/receipt.pdf";
const JUST_NOW_BYTES = 3_000_000;

/**
 * One example: its words and its request (`CURSOR_FROM_<id>`, `CLOCK_FROM_<id>`: the
 * cursor or the clock example `id` returned), and what is changed on disk before it.
 */
export interface Example {
  before?: (root: string) => Promise<void>;
  title: string;
  text: string;
  request: Record<string, unknown>;
}

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

/** The examples, in order; later ones may use cursors that earlier ones returned. */
export const EXAMPLES: Example[] = [
  {
    title: "Start a session",
    text:
      "Every session starts with `initialize`, then the `notifications/initialized` notification.",
    request: {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "example-client", version: "1.0.0" },
      },
    },
  },
  {
    title: "Which folders may be searched",
    text: "`fs.list_roots` names the allowed roots; pass one of them as `root`, or omit `root`.",
    request: call(2, "fs.list_roots", {}),
  },
  {
    title: "Markdown files changed in the first half of December",
    text: "`from` is inclusive, `to` exclusive; `**/*.md` matches at any depth.",
    request: call(3, "fs.search_by_time", {
      timeField: "modified",
      from: "2025-12-01T00:00:00Z",
      to: "2025-12-15T00:00:00Z",
      glob: "**/*.md",
    }),
  },
  {
    title: "The two newest files, then the next page",
    text:
      'With `limit: 2` the result has a `nextCursor`; the next request repeats the arguments and adds it. Answered from the index, which did not count every match: the summary says "more than" and `stats` gives `matchesAtLeast` in place of `totalMatches`, never the page as the total.',
    request: call(4, "fs.search_by_time", { timeField: "modified", limit: 2 }),
  },
  {
    title: "Page two",
    text: "The cursor is opaque: pass it back unchanged, with the same arguments.",
    request: call(5, "fs.search_by_time", {
      timeField: "modified",
      limit: 2,
      cursor: "CURSOR_FROM_4",
    }),
  },
  {
    title: "Folders and files under one folder, by path",
    text:
      "`path` is relative to the root; `includeDirectories` adds folders (with `sizeBytes: null`).",
    request: call(6, "fs.search_by_time", {
      timeField: "modified",
      path: "projects",
      includeDirectories: true,
      sort: "path_asc",
    }),
  },
  {
    title: "A mistake the model can fix: from after to",
    text: "Tool errors come back as `isError: true` with three lines and a JSON twin.",
    request: call(7, "fs.search_by_time", {
      timeField: "modified",
      from: "2025-12-15T00:00:00Z",
      to: "2025-12-01T00:00:00Z",
    }),
  },
  {
    title: "A path that leaves the root",
    text: "Paths are relative and stay inside the root.",
    request: call(8, "fs.search_by_time", { timeField: "modified", path: "../.ssh" }),
  },
  {
    title: "What changed in the last hour",
    text:
      "`within` counts back from now: `1h`, `24h`, `7d`, `2weeks`, or ISO 8601 (`PT1H`). `range` echoes the instants used.",
    request: call(9, "fs.search_by_time", { timeField: "modified", within: "1h" }),
  },
  {
    title: "What changed today",
    text:
      "`period` is a calendar period in the server's time zone (here Asia/Seoul): the window runs from local midnight to the next.",
    request: call(10, "fs.search_by_time", { timeField: "modified", period: "today" }),
  },
  {
    title: "Big files changed this week",
    text:
      "`minSizeBytes` (inclusive) and `maxSizeBytes` (exclusive) keep files by size; weeks start on Monday.",
    request: call(11, "fs.search_by_time", {
      timeField: "modified",
      period: "this_week",
      minSizeBytes: 1_000_000,
    }),
  },
  {
    title: "A window that ends before it starts",
    text:
      "`within` always counts back from now (contract §21); a `to` before that start is refused with `InvalidRange`. For the week before an instant, give `from` and `to`.",
    request: call(12, "fs.search_by_time", {
      timeField: "modified",
      within: "7d",
      to: "2025-12-15T00:00:00Z",
    }),
  },
  {
    title: "What changed since an earlier answer",
    text:
      "Every answer carries each root's `clock` (here the one `fs.list_roots` gave above). Meanwhile a note was written, `todo.txt` deleted and the report renamed: `fs.changes_since` names each net change once, deletions and renames included, and gives the clock to ask with next time.",
    before: async (root) => {
      await Deno.writeTextFile(path.join(root, "notes", "2025-12-15 standup.md"), "standup\n");
      await Deno.remove(path.join(root, "todo.txt"));
      await Deno.rename(
        path.join(root, "reports", "q4.pdf"),
        path.join(root, "reports", "2025-q4.pdf"),
      );
    },
    request: call(13, "fs.changes_since", { since: "CLOCK_FROM_2" }),
  },
  {
    title: "A clock the server cannot follow: a fresh start",
    text:
      "A clock from another run of the server (it restarted), or one too old for the journal, cannot say what was removed: the answer is a fresh instance, says why, and lists what times alone can tell.",
    request: call(14, "fs.changes_since", {
      // This root's clock, from a run of the server that is over.
      since: `fts2.00000000abcd.${rootTag(EXAMPLE_ROOT)}.1.1.miz8t1c0`,
      path: "notes",
    }),
  },
];

/** Runs the examples against a fresh server; returns the Markdown. */
export async function render(): Promise<string> {
  await makeExampleTree();
  const main = fileURLToPath(new URL("../main.ts", import.meta.url));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", V8_FLAGS, "--allow-read", ALLOW_WRITE, ALLOW_ENV, main],
    env: { ALLOW_ROOTS: EXAMPLE_ROOT, TZ: "Asia/Seoul" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const nextLine = async (): Promise<string> => {
    while (!buffered.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("server closed");
      buffered += value;
    }
    const i = buffered.indexOf("\n");
    const line = buffered.slice(0, i);
    buffered = buffered.slice(i + 1);
    return line;
  };
  const send = (m: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(m) + "\n"));
  const out: string[] = [HEADER.replace("EXAMPLE_ROOT", EXAMPLE_ROOT)];
  const cursors = new Map<number, string>();
  const clocks = new Map<number, string>();
  for (const example of EXAMPLES) {
    await example.before?.(EXAMPLE_ROOT);
    let text = JSON.stringify(example.request);
    for (const [id, cursor] of cursors) text = text.replace(`CURSOR_FROM_${id}`, cursor);
    for (const [id, clock] of clocks) text = text.replace(`CLOCK_FROM_${id}`, clock);
    await send(JSON.parse(text));
    const reply = JSON.parse(await nextLine());
    const next = reply.result?.structuredContent?.nextCursor;
    if (typeof next === "string") cursors.set(reply.id, next);
    const clock = reply.result?.structuredContent?.clock ??
      reply.result?.structuredContent?.roots?.[0]?.clock;
    if (typeof clock === "string") clocks.set(reply.id, clock);
    if (example.request.method === "initialize") {
      await send({ jsonrpc: "2.0", method: "notifications/initialized" });
      // The index is built in the background at start-up: the examples begin once it is
      // ready and has answered its first question (src/index/warm_up.ts: its journal is then
      // shown), so that fs.list_roots shows the same state on every run.
      for (let poll = 900;; poll++) {
        await send(call(poll, "fs.list_roots", {}));
        const roots = JSON.parse(await nextLine()).result.structuredContent.roots;
        if (roots[0].index.state === "ready" && roots[0].index.journal) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    out.push(
      `## ${example.title}\n\n${example.text}\n\nRequest (one line on stdin):\n\n\`\`\`json\n${text}\n\`\`\`\n\nResponse:\n\n\`\`\`json\n${
        JSON.stringify(reply, null, 2)
      }\n\`\`\`\n`,
    );
  }
  await writer.close();
  await child.status;
  return out.join("\n");
}

const HEADER = `# Examples

Real requests and responses, captured from the running server by \`deno task examples\`
(docs/examples.ts), which tests/docs_examples_test.ts runs again to check that this page
is current. The server was started as the README shows, with
\`ALLOW_ROOTS=EXAMPLE_ROOT\` and \`TZ=Asia/Seoul\`, over a folder with seven files whose
modification times are set to fixed December 2025 instants, and one 3 MB file written just
before the requests. Each request is one line on the server's stdin; each response is the
line it wrote back, pretty-printed here; they begin once the folder's index is ready.
\`createdAt\` values are the files' real creation
times, so they change from run to run, as do \`elapsedMs\`, the server time in the summary
line, the new file's time and the windows counted from now.
`;

if (import.meta.main) {
  await Deno.writeTextFile(new URL("./examples.md", import.meta.url), await render());
}
