/**
 * Opaque cursors (contract §10): base64url (no padding) of UTF-8 JSON
 * `{"v":1,"s":sort,"t":ms|null,"p":path,"w":boundary,"q":queryHash,"c":chain,"n":counted}`.
 * The only module that knows these letters; everywhere else a cursor is a {@linkcode Position}.
 *
 * A cursor's contents are only ever compared with paths and times; they are never
 * used to open anything.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { ToolError } from "../../errors.ts";
import { type Position, queryArguments, type SearchRequest, type Sort, SORTS } from "../request.ts";

/** The cursor format version this server writes and reads. */
export const CURSOR_VERSION = 1;

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Encodes where the next page of a query in order `sort` starts; `q` is the query's hash.
 *
 * @example
 * ```ts
 * const text = encodeCursor("path_asc", { key: { time: 5, path: "a.md" }, boundary: null }, "abc");
 * decodeCursor(text, "path_asc", "abc").key; // { time: 5, path: "a.md" }
 * ```
 */
export function encodeCursor(sort: Sort, position: Position, q: string): string {
  const payload: Record<string, unknown> = { v: CURSOR_VERSION, s: sort };
  if (position.key) {
    payload.t = position.key.time;
    payload.p = position.key.path;
  }
  if (position.boundary !== null) payload.w = position.boundary;
  payload.q = q;
  if (position.chain !== undefined) payload.c = position.chain;
  if (position.counted !== undefined) payload.n = position.counted;
  return encodePayload(payload);
}

/**
 * Decodes and checks a cursor against the request's sort and query hash.
 *
 * @throws {ToolError} `CursorInvalid` (not base64url, not JSON, missing or mistyped
 * fields, another query's cursor), `CursorVersionMismatch`, `CursorSortMismatch`.
 */
export function decodeCursor(text: string, sort: Sort, q: string): Position {
  const payload = parsePayload(text);
  if (typeof payload.v !== "number" || !Number.isInteger(payload.v)) {
    throw invalid("it has no version number");
  }
  if (payload.v !== CURSOR_VERSION) {
    throw new ToolError(
      "CursorVersionMismatch",
      `The cursor has version ${payload.v}, but this server reads version ${CURSOR_VERSION}.`,
      "Omit 'cursor' and start again from the first page.",
    );
  }
  const s = payload.s;
  if (typeof s !== "string" || !(SORTS as readonly string[]).includes(s)) {
    throw invalid("its sort field is missing or unknown");
  }
  const hasT = "t" in payload;
  const hasP = "p" in payload;
  const t = payload.t;
  const p = payload.p;
  const w = payload.w;
  if (hasT !== hasP) throw invalid("it has only half of a position");
  if (hasT && !(t === null || (typeof t === "number" && Number.isSafeInteger(t)))) {
    throw invalid("its time field is not a whole number of milliseconds");
  }
  if (hasP && typeof p !== "string") throw invalid("its path field is not a string");
  if ("w" in payload && typeof w !== "string") throw invalid("its boundary field is not a string");
  if (!hasP && w === undefined) throw invalid("it holds no position");
  if ("q" in payload && typeof payload.q !== "string") {
    throw invalid("its query field is not a string");
  }
  if (s !== sort) {
    throw new ToolError(
      "CursorSortMismatch",
      `The cursor was made for sort '${s}', but this request asks for '${sort}'.`,
      `Repeat the request with sort '${s}', or omit 'cursor' to start over with '${sort}'.`,
    );
  }
  if (payload.q !== undefined && payload.q !== q) {
    throw new ToolError(
      "CursorInvalid",
      "The cursor belongs to a different query.",
      `Pass the cursor only with the same ${listed(queryArguments())}; or omit it to start over.`,
    );
  }
  const c = payload.c;
  const n = payload.n;
  return {
    key: hasP ? { time: t as number | null, path: p as string } : null,
    boundary: typeof w === "string" ? w : null,
    // A chain that is not a whole number is ignored: it only ever selects a snapshot.
    ...(typeof c === "number" && Number.isSafeInteger(c) ? { chain: c } : {}),
    // Likewise a count that is not a whole number: it only ever gives a last page its total.
    ...(typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? { counted: n } : {}),
  };
}

/**
 * A short, stable hash of everything that defines a query's result set (contract §10):
 * derived from the query object itself, its root, its start and every key of its filter
 * (the resolved time bounds among them), never from a hand-kept list of fields, so a new
 * filter input cannot be left out. Sort, limit and cursor are not part of it. The same
 * query gives the same hash across restarts (a fixed hash function over canonical JSON).
 */
export function queryHash(query: Pick<SearchRequest, "root" | "start" | "filter">): string {
  const { root, start, filter } = query;
  const normalized = {
    root: root.path,
    // A depth limit means nothing without recursion.
    start: { ...start, maxDepth: start.recursive ? start.maxDepth : null },
    filter,
  };
  return createHash("sha256").update(canonicalJson(normalized)).digest("base64url").slice(0, 12);
}

/** JSON with every object's keys in sorted order: the same value, the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value).sort().map((key) =>
      `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`
    );
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Where the next page of a search over every root starts (`root: "*"`, contract §26). */
export interface SetPosition {
  /** Each root's own cursor, in root order; `null`: that root has no more. */
  roots: (string | null)[];
  /** The window the first page resolved (epoch ms), so that every page asks the same. */
  from: number | null;
  to: number | null;
  /** How many matches the pages so far gave. */
  counted: number;
}

/** Encodes a search over every root's next page: `{"v","s","R":[cursor|null],"F","T","n"}`. */
export function encodeSetCursor(sort: Sort, position: SetPosition): string {
  const { roots, from, to, counted } = position;
  const payload = { v: CURSOR_VERSION, s: sort, R: roots, F: from, T: to, n: counted };
  return encodePayload(payload);
}

/**
 * Decodes a search over every root's cursor, checked against the sort and the number of
 * roots (each root's own cursor is checked against its query when it is used).
 *
 * @throws {ToolError} `CursorInvalid`, `CursorVersionMismatch`, `CursorSortMismatch`.
 */
export function decodeSetCursor(text: string, sort: Sort, rootCount: number): SetPosition {
  const payload = parsePayload(text);
  if (payload.v !== CURSOR_VERSION) {
    throw new ToolError(
      "CursorVersionMismatch",
      `The cursor has version ${payload.v}, but this server reads version ${CURSOR_VERSION}.`,
      "Omit 'cursor' and start again from the first page.",
    );
  }
  const { R, F, T, n } = payload;
  const time = (t: unknown) => t === null || (typeof t === "number" && Number.isSafeInteger(t));
  if (
    !Array.isArray(R) || R.length !== rootCount ||
    !R.every((c) => c === null || typeof c === "string") || !time(F) || !time(T) ||
    typeof n !== "number" || !Number.isSafeInteger(n) || n < 0
  ) {
    throw invalid("it is not a cursor over every root of this server (root '*')");
  }
  if (payload.s !== sort) {
    throw new ToolError(
      "CursorSortMismatch",
      `The cursor was made for sort '${payload.s}', but this request asks for '${sort}'.`,
      `Repeat the request with sort '${payload.s}', or omit 'cursor' to start over with '${sort}'.`,
    );
  }
  return {
    roots: R as (string | null)[],
    from: F as number | null,
    to: T as number | null,
    counted: n,
  };
}

/**
 * When the paging sequence of a cursor began (its `c`), read before the cursor is checked
 * (the query hash it is checked against depends on it, contract §21); `undefined` when
 * it has none or cannot be read (the full check then says why).
 */
export function peekChain(text: string): number | undefined {
  try {
    const c = parsePayload(text).c;
    return typeof c === "number" && Number.isSafeInteger(c) ? c : undefined;
  } catch {
    return undefined;
  }
}

/** Another tool's cursor (contract §24): its fields as opaque base64url JSON. */
export function encodePayload(payload: Record<string, unknown>): string {
  return bytesToBase64url(new TextEncoder().encode(JSON.stringify(payload)));
}

/**
 * Reads {@linkcode encodePayload}'s text back.
 *
 * @throws {ToolError} `CursorInvalid` when it is not base64url JSON of an object.
 */
export function parsePayload(text: string): Record<string, unknown> {
  if (!BASE64URL.test(text) || text.length % 4 === 1 || text === "") {
    throw invalid("it is not base64url");
  }
  let json: string;
  try {
    json = new TextDecoder("utf-8", { fatal: true }).decode(base64urlToBytes(text));
  } catch {
    throw invalid("it does not decode to UTF-8 text");
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw invalid("it does not hold JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("it does not hold a JSON object");
  }
  return value as Record<string, unknown>;
}

/** `CursorInvalid`, saying why. */
export function invalid(why: string): ToolError {
  return new ToolError(
    "CursorInvalid",
    `The cursor is not valid: ${why}.`,
    "Pass 'nextCursor' from the previous result exactly as it was, or omit 'cursor' to start from the first page.",
  );
}

function bytesToBase64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function base64urlToBytes(text: string): Uint8Array {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length < 2
    ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
