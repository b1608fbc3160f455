/**
 * The published inputSchema (literal JSON, contract §3) and the zod shape that parses
 * arguments (contract §1) must describe the same arguments.
 *
 * The zod shape is deliberately looser than the JSON Schema: it has no enums and no
 * integer/range bounds, so that a bad `timeField`/`sort` reaches the InvalidEnum check
 * and a bad `limit`/`maxDepth` reaches LimitOutOfRange/MaxDepthOutOfRange (contract §5
 * steps 2 to 4) instead of failing as InvalidArgument at step 1. So JSON "integer"
 * corresponds to zod "number", and enums/defaults are compared with the constants the
 * later checks use rather than with the zod shape.
 *
 * @module
 */
import assert from "node:assert/strict";
import { z } from "zod";
import type { Config } from "../../src/config.ts";
import { DEFAULT_LIMITS, DEFAULT_MAX_RESULT_CHARS } from "../../src/config.ts";
import { SEARCH_INPUT_SCHEMA } from "../../src/mcp/tool_schema.ts";
import { SEARCH_TOOL } from "../../src/mcp/search_tool.ts";
import { argumentsShape, DEFAULT_LIMIT, parseArguments } from "../../src/query/arguments/mod.ts";
import { SORTS, TIME_FIELDS } from "../../src/query/request.ts";

interface JsonProperty {
  type?: string | string[];
  enum?: readonly unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

interface JsonObjectSchema {
  type?: string;
  properties: Record<string, JsonProperty>;
  required?: readonly string[];
  additionalProperties?: unknown;
}

const published = SEARCH_INPUT_SCHEMA as unknown as JsonObjectSchema;
const fromZod = z.toJSONSchema(argumentsShape) as unknown as JsonObjectSchema;

const CONFIG: Config = {
  roots: [{ path: "/srv/docs", realPath: "/srv/docs" }],
  defaultRoot: { path: "/srv/docs", realPath: "/srv/docs" },
  limits: { ...DEFAULT_LIMITS },
  toolNames: "dotted",
  maxResultChars: DEFAULT_MAX_RESULT_CHARS,
  exclude: [],
  respectIgnoreFiles: false,
  index: { mode: "off", maxEntries: 1 },
  changes: { maxEntries: 1, maxAgeMs: 1000 },
  shared: { on: false, idleMs: 0 },
};

Deno.test("SEARCH_INPUT_SCHEMA and argumentsShape have the same property names", () => {
  assert.deepEqual(
    Object.keys(fromZod.properties).sort(),
    Object.keys(published.properties).sort(),
  );
});

Deno.test("SEARCH_INPUT_SCHEMA and argumentsShape require the same properties", () => {
  assert.deepEqual([...(fromZod.required ?? [])].sort(), [...(published.required ?? [])].sort());
  assert.deepEqual(published.required, ["timeField"]);
});

Deno.test("SEARCH_INPUT_SCHEMA and argumentsShape both forbid other properties", () => {
  assert.equal(published.type, "object");
  assert.equal(fromZod.type, "object");
  assert.equal(published.additionalProperties, false);
  assert.equal(fromZod.additionalProperties, false);
});

Deno.test("SEARCH_INPUT_SCHEMA and argumentsShape agree on each property's JSON type", () => {
  for (const [name, prop] of Object.entries(published.properties)) {
    assert.equal(typeof prop.type, "string", `${name} has one JSON type`);
    // zod has no integer type here on purpose (see the module doc): integer ~ number.
    const expected = prop.type === "integer" ? "number" : prop.type;
    assert.equal(fromZod.properties[name]?.type, expected, name);
  }
});

Deno.test("argumentsShape is looser than the schema so later steps can name the error", () => {
  // Out-of-enum and out-of-range values pass the shape; parseArguments() reports them.
  assert.equal(
    argumentsShape.safeParse({ timeField: "accessed", sort: "size", limit: 0, maxDepth: 1.5 })
      .success,
    true,
  );
  // Wrong JSON types and unknown properties do not.
  assert.equal(argumentsShape.safeParse({ timeField: "modified", limit: "5" }).success, false);
  assert.equal(argumentsShape.safeParse({ timeField: "modified", extra: 1 }).success, false);
  assert.equal(argumentsShape.safeParse({}).success, false);
});

Deno.test("SEARCH_INPUT_SCHEMA timeField enum matches TIME_FIELDS", () => {
  assert.deepEqual(published.properties.timeField?.enum, [...TIME_FIELDS]);
});

Deno.test("SEARCH_INPUT_SCHEMA sort enum matches SORTS and its default is time_desc", () => {
  assert.deepEqual(published.properties.sort?.enum, [...SORTS]);
  assert.equal(published.properties.sort?.default, "time_desc");
  assert.ok((SORTS as readonly unknown[]).includes(published.properties.sort?.default));
});

Deno.test("SEARCH_INPUT_SCHEMA limit default and bounds match DEFAULT_LIMIT and 1..1000", () => {
  assert.equal(published.properties.limit?.default, DEFAULT_LIMIT);
  assert.equal(DEFAULT_LIMIT, 100);
  assert.equal(published.properties.limit?.minimum, 1);
  assert.equal(published.properties.limit?.maximum, 1000);
  assert.equal(published.properties.maxDepth?.minimum, 0);
});

Deno.test("every default in SEARCH_INPUT_SCHEMA is what parseArguments() applies", () => {
  const { request } = parseArguments({ timeField: "modified" }, CONFIG);
  const applied: Record<string, unknown> = {
    recursive: request.start.recursive,
    includeFiles: request.filter.includeFiles,
    includeDirectories: request.filter.includeDirectories,
    includeUnknownTime: request.filter.includeUnknownTime,
    includeVcs: request.filter.includeVcs,
    sort: request.order,
    limit: request.limit,
  };
  const withDefault = Object.entries(published.properties).filter(([, p]) => "default" in p);
  assert.deepEqual(withDefault.map(([name]) => name).sort(), Object.keys(applied).sort());
  for (const [name, prop] of withDefault) {
    assert.equal(applied[name], prop.default, name);
  }
});

Deno.test("every enum value in SEARCH_INPUT_SCHEMA is accepted by parseArguments()", () => {
  for (const timeField of published.properties.timeField?.enum ?? []) {
    assert.equal(parseArguments({ timeField }, CONFIG).request.filter.timeField, timeField);
  }
  for (const sort of published.properties.sort?.enum ?? []) {
    assert.equal(parseArguments({ timeField: "modified", sort }, CONFIG).request.order, sort);
  }
});

Deno.test("SEARCH_TOOL publishes SEARCH_INPUT_SCHEMA unchanged", () => {
  assert.equal(SEARCH_TOOL.name, "fs.search_by_time");
  assert.deepEqual(SEARCH_TOOL.inputSchema, SEARCH_INPUT_SCHEMA);
});
