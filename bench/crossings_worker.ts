/**
 * The two workers of `bench:crossings`, by name: `index` answers a question with `matches`
 * matches shaped as the index's (an object, cloned to its owner); `link` writes each
 * question line to the service's socket and hands each answer line back whole, as the
 * session's link worker does.
 *
 * @module
 */
import { crossingLines, writeLine } from "./crossing_lines.ts";

interface Scope {
  name: string;
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}
const scope = self as unknown as Scope;

/** An answer of `matches` matches, as the index hands one to its owner. */
function answer(id: number, matches: number) {
  const first = Array.from({ length: matches }, (_, i) => ({
    path: `t${String(i % 48).padStart(3, "0")}/d${String(i % 100).padStart(3, "0")}/f00${i}.ts`,
    time: 1780271961122 - i * 1000,
    isDirectory: false,
    sizeBytes: 0,
    modified: 1780271961122 - i * 1000,
    created: 1796004682653,
  }));
  return {
    t: "scan",
    id,
    outcome: {
      stopped: null,
      collected: { first, walkPrefix: [], all: null, allComplete: false, total: 500000 },
      walk: { scannedDirectories: 22, scannedFiles: matches, skipped: 0, excluded: 0 },
      entries: { skipped: 0, unknownTime: 0, vcs: 0 },
    },
    journal: { epoch: 1, position: 0, run: "164bddd95cfe" },
  };
}

if (scope.name === "index") {
  scope.onmessage = (event) => {
    const { id, matches } = event.data as { id: number; matches: number };
    scope.postMessage(answer(id, matches));
  };
} else {
  let conn: Deno.Conn | null = null;
  scope.onmessage = async (event) => {
    const message = event.data as { type: string; socket: string; line: string };
    if (message.type === "init") {
      conn = await Deno.connect({ transport: "unix", path: message.socket });
      void read(conn);
      return scope.postMessage({ type: "ready" });
    }
    await writeLine(conn!, message.line);
  };
  const read = async (from: Deno.Conn) => {
    for await (const line of crossingLines(from)) {
      scope.postMessage({ type: "message", root: 0, line });
    }
  };
}
