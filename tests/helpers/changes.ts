/**
 * `fs.changes_since` as the tests call it (contract §24): its structured result, and a
 * root's clock from a search.
 *
 * @module
 */
import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types.d.ts"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Connection } from "./server.ts";
import type { IndexedServer } from "./indexed_server.ts";
import { until } from "./until.ts";
import type { ServerChange } from "./snapshot.ts";

/** `structuredContent` of a changes call, as the tests read it. */
export interface Changes {
  clock: string;
  since: string;
  freshInstance: boolean;
  complete: boolean;
  reason?: string;
  changes: (ServerChange & {
    sizeBytes: number | null;
    modifiedAt: string | null;
    entries?: number;
  })[];
  nextCursor: string | null;
  summary: string;
  notes?: { code: string; message: string }[];
  root: string;
  stats: { totalChanges?: number; excluded?: number };
}

/** One changes call (it must not be an error). */
export async function changesOf(
  conn: Connection,
  args: Record<string, unknown>,
): Promise<Changes> {
  const result = await conn.client.callTool({ name: "fs.changes_since", arguments: args });
  assert.equal(result.isError, false, JSON.stringify(result.content));
  return result.structuredContent as unknown as Changes;
}

/** Every page of a changes call, as one answer (the first page's clock). */
export async function allChangesOf(
  conn: Connection,
  args: Record<string, unknown>,
): Promise<Changes> {
  const first = await changesOf(conn, { limit: 1000, ...args });
  const all = [...first.changes];
  for (let page = first; page.nextCursor !== null;) {
    page = await changesOf(conn, { limit: 1000, ...args, cursor: page.nextCursor });
    all.push(...page.changes);
  }
  return { ...first, changes: all };
}

/** The root's clock, from a search's answer. */
export async function clockOf(conn: Connection): Promise<string> {
  const result = await conn.search({ timeField: "modified", limit: 1 }) as CallToolResult;
  const clock = (result.structuredContent as { clock?: string }).clock;
  assert.ok(clock, "every search answer carries its root's clock");
  return clock;
}

/**
 * Waits until the index answers a search: its barrier passed, so the watcher has read every
 * event before it.
 */
export async function indexAnswered(server: IndexedServer): Promise<void> {
  await until(async () => {
    const before = (await server.info()).answers?.index ?? 0;
    await clockOf(server.conn);
    return ((await server.info()).answers?.index ?? 0) > before;
  }, "an answer from the index");
}
