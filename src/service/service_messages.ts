/**
 * Every message a service reads, checked against its type before use (contract §28a): a
 * peer of the same user may send anything, and what is not a whole message of ours ends
 * that peer's connection, never the service. The schemas follow `ToService` (wire) and the
 * query's types; a request is checked field by field, as tool input is.
 *
 * @module
 */
import { z } from "zod";
import { SORTS, TIME_FIELDS } from "../query/mod.ts";
import type { ToService } from "../wire/mod.ts";

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

/** The message, or `null` when `value` is not one of ours. */
export function toService(value: unknown): ToService | null {
  const parsed = TO_SERVICE.safeParse(value);
  return parsed.success ? parsed.data as ToService : null;
}
