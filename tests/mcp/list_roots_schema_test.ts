/**
 * `fs.list_roots`' output schema (contract §23a): closed at every level
 * (`additionalProperties: false`), every property described, and the answer of a server with
 * two roots, one indexed and ready and one whose index is off, holds only what it declares.
 */
import assert from "node:assert/strict";
import { LIST_ROOTS_TOOL } from "../../src/mcp/list_roots.ts";
import { connect, rootIndex } from "../helpers/server.ts";
import { makeTree, T0 } from "../helpers/tree.ts";
import { sanitize } from "../helpers/sanitize.ts";
import { until } from "../helpers/until.ts";
import { NO_INDEX } from "../helpers/live_index.ts";

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  additionalProperties?: boolean;
  description?: string;
  enum?: unknown[];
};

/** Where `schema` (at `at`) is not closed, or a property has no description. */
function looseParts(schema: Schema, at: string): string[] {
  const out: string[] = [];
  if (schema.type === "object" && schema.additionalProperties !== false) out.push(`${at}: open`);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!property.description) out.push(`${at}.${name}: no description`);
    out.push(...looseParts(property, `${at}.${name}`));
  }
  if (schema.items) out.push(...looseParts(schema.items, `${at}[]`));
  return out;
}

/** Where `value` (at `at`) is not what `schema` declares (types, enums, closed objects). */
function mismatches(value: unknown, schema: Schema, at: string): string[] {
  if (schema.anyOf) {
    return schema.anyOf.some((s) => mismatches(value, s, at).length === 0) ? [] : [`${at}: anyOf`];
  }
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)}`];
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  const wanted = schema.type === "integer" ? "number" : schema.type;
  if (wanted && kind !== wanted) return [`${at}: ${kind}, not ${schema.type}`];
  if (schema.type === "integer" && !Number.isInteger(value)) return [`${at}: not an integer`];
  if (kind === "array") {
    return (value as unknown[]).flatMap((v, i) => mismatches(v, schema.items!, `${at}[${i}]`));
  }
  if (kind !== "object") return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
    const property = schema.properties?.[k];
    return property ? mismatches(v, property, `${at}.${k}`) : [`${at}.${k}: not declared`];
  });
}

Deno.test("list_roots schema: closed at every level, every property described", () => {
  assert.deepEqual(looseParts(LIST_ROOTS_TOOL.outputSchema as Schema, "output"), []);
  // The checks find what they look for.
  assert.deepEqual(looseParts({ type: "object", properties: { a: { type: "string" } } }, "x"), [
    "x: open",
    "x.a: no description",
  ]);
});

Deno.test({
  name: "list_roots schema: a ready index's and an off one's answer hold only what is declared",
  ignore: NO_INDEX,
  ...sanitize,
  async fn() {
    await using one = await makeTree({ "a.md": { mtime: T0 }, "d/b.md": { mtime: T0 + 1 } });
    await using two = await makeTree({ "c.md": { mtime: T0 } });
    await using conn = await connect({ ALLOW_ROOTS: `${one.root};${two.root}` });
    await until(async () => (await rootIndex(conn)).state === "ready", "the first root ready");
    await conn.search({ timeField: "modified" }); // an answer: its journal and costs reported
    const listed = await conn.client.listTools(); // the SDK checks answers against it
    const tool = listed.tools.find((t: { name: string }) => t.name === "fs.list_roots")!;
    const result = await conn.client.callTool({ name: "fs.list_roots", arguments: {} });
    const structured = result.structuredContent as { roots: { index: Record<string, unknown> }[] };
    const index = structured.roots[0]!.index;
    for (const field of ["state", "entries", "answers", "journal", "shared"]) {
      assert.ok(field in index, `${field} in ${JSON.stringify(index)}`);
    }
    assert.deepEqual(mismatches(structured, tool.outputSchema as Schema, "result"), []);
    // A shared index (TEST_SHARED_INDEX=1) says what its holder, the service, takes apart from
    // the session's own `memory`.
    const shared = index.shared as { sessions?: number; rssBytes?: number };
    if (shared.sessions !== undefined) assert.ok(shared.rssBytes! > 0, JSON.stringify(shared));
    // A field the schema does not declare is found.
    const extra = { ...structured, roots: [{ ...structured.roots[0], colour: "red" }] };
    assert.deepEqual(mismatches(extra, tool.outputSchema as Schema, "result"), [
      "result.roots[0].colour: not declared",
    ]);
  },
});
