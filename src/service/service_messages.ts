/**
 * Every message a service reads, checked against its type before use (contract §28a): a
 * peer of the same user may send anything, and what is not a whole message of ours ends
 * that peer's connection, never the service. The shapes follow `ToService` (wire) and the
 * query's types; a request is checked field by field, as tool input is (shapes.ts: the
 * checks of the zod schema it replaced, without loading zod into a service's isolate).
 *
 * @module
 */
import { SORTS, TIME_FIELDS } from "../query/mod.ts";
import type { ToService } from "../wire/mod.ts";
import {
  array,
  BAD,
  boolean,
  count,
  either,
  nullable,
  number,
  object,
  oneOf,
  optional,
  type Shape,
  string,
  tagged,
} from "./shapes.ts";

const ms = nullable(number());
const root = object({ path: string, realPath: string });

const filter = object({
  timeField: oneOf(TIME_FIELDS),
  from: ms,
  to: ms,
  glob: nullable(string),
  caseSensitive: nullable(boolean),
  includeFiles: boolean,
  includeDirectories: boolean,
  includeUnknownTime: boolean,
  exclude: array(string),
  respectIgnoreFiles: boolean,
  includeVcs: boolean,
  minSizeBytes: nullable(number()),
  maxSizeBytes: nullable(number()),
  alsoCreated: optional(boolean),
});

const key = object({ time: ms, path: string });

const request = object({
  root,
  start: object({ path: string, recursive: boolean, maxDepth: nullable(count) }),
  filter,
  order: oneOf(SORTS),
  limit: count,
  after: nullable(object({
    key: nullable(key),
    boundary: nullable(string),
    chain: optional(number()),
    counted: optional(count),
  })),
  limits: object({
    maxFilesScanned: count,
    maxDirectoriesScanned: count,
    scanTimeoutMs: number((n) => n > 0),
    maxDepth: count,
    onLimit: oneOf(["partial", "error"]),
  }),
});

const query = object({
  since: either(object({ position: number() }), object({ ms: number() })),
  until: nullable(number()),
  startPath: string,
  filter,
  expand: boolean,
  after: nullable(string),
  limit: count,
});

const TO_SERVICE: Shape<unknown> = tagged("t", {
  hello: object({
    t: oneOf(["hello"]),
    version: string,
    build: string,
    name: string,
    idleMs: optional(count),
  }),
  scan: object({
    t: oneOf(["scan"]),
    id: count,
    request,
    keepAll: count,
    walkCost: optional(object({ entries: count, ms: number((n) => n >= 0) })),
  }),
  cancel: object({ t: oneOf(["cancel"]), id: count }),
  journal: object({ t: oneOf(["journal"]), id: count, query }),
  status: object({ t: oneOf(["status"]), id: count }),
  hold: object({ t: oneOf(["hold"]), id: count }),
  release: object({ t: oneOf(["release"]), id: count }),
  about: object({ t: oneOf(["about"]) }),
  stop: object({ t: oneOf(["stop"]) }),
});

/** The message, or `null` when `value` is not one of ours. */
export function toService(value: unknown): ToService | null {
  const checked = TO_SERVICE(value);
  return checked === BAD ? null : checked as ToService;
}
