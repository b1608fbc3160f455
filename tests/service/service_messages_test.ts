/**
 * The checks a service makes of every message it reads (src/service/service_messages.ts,
 * src/service/shapes.ts) are those of the zod schema they replaced (below, as it was): for
 * every message of ours, each mutated (a value replaced by any JSON, a key removed, a key
 * added), and any JSON at all, both take or refuse it alike, and what is taken is the same
 * copy (only the keys named).
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { z } from "zod";
import { SORTS, TIME_FIELDS } from "../../src/query/mod.ts";
import { toService } from "../../src/service/service_messages.ts";
import { searchRequest } from "../helpers/request.ts";

const count = z.number().int().nonnegative();
const ms = z.number().finite().nullable();
const root = z.object({ path: z.string(), realPath: z.string() });

const filter = z.object({
  timeField: z.enum(TIME_FIELDS),
  from: ms,
  to: ms,
  glob: z.string().nullable(),
  caseSensitive: z.boolean().nullable(),
  includeFiles: z.boolean(),
  includeDirectories: z.boolean(),
  includeUnknownTime: z.boolean(),
  exclude: z.array(z.string()),
  respectIgnoreFiles: z.boolean(),
  includeVcs: z.boolean(),
  minSizeBytes: z.number().nullable(),
  maxSizeBytes: z.number().nullable(),
  alsoCreated: z.boolean().optional(),
});

const key = z.object({ time: ms, path: z.string() });

const request = z.object({
  root,
  start: z.object({ path: z.string(), recursive: z.boolean(), maxDepth: count.nullable() }),
  filter,
  order: z.enum(SORTS),
  limit: count,
  after: z.object({
    key: key.nullable(),
    boundary: z.string().nullable(),
    chain: z.number().optional(),
    counted: count.optional(),
  }).nullable(),
  limits: z.object({
    maxFilesScanned: count,
    maxDirectoriesScanned: count,
    scanTimeoutMs: z.number().positive(),
    maxDepth: count,
    onLimit: z.enum(["partial", "error"]),
  }),
});

const query = z.object({
  since: z.union([z.object({ position: z.number() }), z.object({ ms: z.number() })]),
  until: z.number().nullable(),
  startPath: z.string(),
  filter,
  expand: z.boolean(),
  after: z.string().nullable(),
  limit: count,
});

const TO_SERVICE = z.discriminatedUnion("t", [
  z.object({
    t: z.literal("hello"),
    version: z.string(),
    build: z.string(),
    name: z.string(),
    idleMs: count.optional(),
  }),
  z.object({
    t: z.literal("scan"),
    id: count,
    request,
    keepAll: count,
    walkCost: z.object({ entries: count, ms: z.number().nonnegative() }).optional(),
  }),
  z.object({ t: z.literal("cancel"), id: count }),
  z.object({ t: z.literal("journal"), id: count, query }),
  z.object({ t: z.literal("status"), id: count }),
  z.object({ t: z.literal("hold"), id: count }),
  z.object({ t: z.literal("release"), id: count }),
  z.object({ t: z.literal("about") }),
  z.object({ t: z.literal("stop") }),
]);

function zodToService(value: unknown): unknown {
  const parsed = TO_SERVICE.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const REQUEST = {
  ...searchRequest("/r"),
  after: { key: { time: 5, path: "a" }, boundary: null, chain: 2, counted: 3 },
};
const QUERY = {
  since: { position: 3 },
  until: null,
  startPath: "",
  filter: { ...REQUEST.filter, alsoCreated: true },
  expand: false,
  after: null,
  limit: 10,
};
const OURS: unknown[] = [
  { t: "hello", version: "0.2.0", build: "b", name: "n", idleMs: 5 },
  { t: "hello", version: "0.2.0", build: "b", name: "n" },
  { t: "scan", id: 1, request: REQUEST, keepAll: 0, walkCost: { entries: 3, ms: 0.5 } },
  { t: "scan", id: 1, request: searchRequest("/r"), keepAll: 2 },
  { t: "cancel", id: 1 },
  { t: "journal", id: 2, query: QUERY },
  { t: "journal", id: 2, query: { ...QUERY, since: { ms: 7 }, until: 9, after: "x" } },
  { t: "status", id: 3 },
  { t: "hold", id: 4 },
  { t: "release", id: 4 },
  { t: "about" },
  { t: "stop" },
];

/** Every place in `value` (objects' keys and arrays' items), as paths of keys. */
function places(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => places(v, [...at, i], out));
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) places(v, [...at, k], out);
  }
  return out;
}

type Edit = { at: number; how: "replace" | "remove" | "add"; value: unknown; key: string };

function edited(message: unknown, edits: Edit[]): unknown {
  let value = structuredClone(message);
  for (const edit of edits) {
    const all = places(value);
    const path = all[edit.at % all.length]!;
    if (path.length === 0) {
      if (edit.how === "replace") value = edit.value;
      continue;
    }
    let holder = value as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) holder = holder[k] as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (edit.how === "replace") holder[last] = edit.value;
    else if (edit.how === "remove" && !Array.isArray(holder)) delete holder[last];
    else if (edit.how === "add" && typeof holder[last] === "object" && holder[last] !== null) {
      (holder[last] as Record<string, unknown>)[edit.key] = edit.value;
    }
  }
  return JSON.parse(JSON.stringify(value) ?? "null");
}

const edit = fc.record({
  at: fc.nat(),
  how: fc.constantFrom("replace" as const, "remove" as const, "add" as const),
  value: fc.oneof(
    fc.jsonValue(),
    fc.constantFrom(-1, 0, 0.5, 1e300, -0, "", "partial", "time_desc", "modified", null),
  ),
  key: fc.constantFrom("t", "id", "extra", "limit", "__proto__"),
});

Deno.test("service messages: every message of ours is taken as it is", () => {
  for (const message of OURS) {
    assert.deepEqual(toService(message), message);
    assert.deepEqual(toService(message), zodToService(message));
  }
});

Deno.test("service messages: a message edited is taken or refused as zod would", () => {
  fc.assert(
    fc.property(fc.constantFrom(...OURS), fc.array(edit, { maxLength: 4 }), (message, edits) => {
      const value = edited(message, edits);
      assert.deepEqual(toService(value), zodToService(value));
    }),
    { numRuns: 3_000 },
  );
});

Deno.test("service messages: any JSON, and any JSON under a tag of ours, as zod would", () => {
  const tags = fc.constantFrom("hello", "scan", "cancel", "journal", "about", "stop", "x");
  fc.assert(
    fc.property(fc.jsonValue(), tags, fc.dictionary(fc.string(), fc.jsonValue()), (v, t, d) => {
      assert.deepEqual(toService(v), zodToService(v));
      const tagged = { ...d, t };
      assert.deepEqual(toService(tagged), zodToService(tagged));
    }),
    { numRuns: 1_000 },
  );
});
