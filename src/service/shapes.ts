/**
 * Checking a parsed JSON value against the shape of a message before a service uses it
 * (service_messages.ts): each shape returns a copy holding only the keys it names, or
 * {@linkcode BAD}. The subset of zod's object schemas the wire needs, written here because
 * a service's isolate loads no npm package: the first one starts Deno's Node layer in it
 * (zod and that layer: 12 MB of a process alone; with `node:` modules and the matchers gone
 * too, a service of five small roots 122 → 115 MB: docs/benchmarks.md, "A service without
 * Deno's Node layer"). tests/service/service_messages_test.ts holds it to the zod schema it
 * replaced.
 *
 * @module
 */

/** What a shape returns for a value not of its shape. */
export const BAD: unique symbol = Symbol("not of the shape");

/** A check of one value: its copy (only the keys named), or {@linkcode BAD}. */
export type Shape<T> = (value: unknown) => T | typeof BAD;

/** A shape whose key may be left out of its object. */
interface Optional<T> {
  optional: Shape<T>;
}

type Field = Shape<unknown> | Optional<unknown>;
type Of<F> = F extends Optional<infer T> ? T | undefined : F extends Shape<infer T> ? T : never;

/** Any string. */
export const string: Shape<string> = (v) => typeof v === "string" ? v : BAD;

/** `true` or `false`. */
export const boolean: Shape<boolean> = (v) => typeof v === "boolean" ? v : BAD;

/** A finite number that also passes `test`, if given. */
export function number(test: (n: number) => boolean = () => true): Shape<number> {
  return (v) => typeof v === "number" && Number.isFinite(v) && test(v) ? v : BAD;
}

/** A safe integer of at least 0. */
export const count: Shape<number> = number((n) => Number.isSafeInteger(n) && n >= 0);

/** One of `values`. */
export function oneOf<const T extends readonly (string | number | boolean)[]>(
  values: T,
): Shape<T[number]> {
  return (v) => (values as readonly unknown[]).includes(v) ? v as T[number] : BAD;
}

/** `null`, or a value of `shape`. */
export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  return (v) => v === null ? null : shape(v);
}

/** A key of an object that may be missing (or `undefined`). */
export function optional<T>(shape: Shape<T>): Optional<T> {
  return { optional: shape };
}

/** An array of values of `shape`. */
export function array<T>(shape: Shape<T>): Shape<T[]> {
  return (v) => {
    if (!Array.isArray(v)) return BAD;
    const out: T[] = [];
    for (const item of v) {
      const checked = shape(item);
      if (checked === BAD) return BAD;
      out.push(checked);
    }
    return out;
  };
}

/** An object (not an array, not `null`) with the keys of `fields`; other keys are left out. */
export function object<F extends Record<string, Field>>(
  fields: F,
): Shape<{ [K in keyof F]: Of<F[K]> }> {
  const entries = Object.entries(fields);
  return (v) => {
    if (!isRecord(v)) return BAD;
    const out: Record<string, unknown> = {};
    for (const [key, field] of entries) {
      const value = Object.hasOwn(v, key) ? v[key] : undefined;
      const optional = typeof field !== "function";
      if (optional && value === undefined) continue;
      const checked = (optional ? field.optional : field)(value);
      if (checked === BAD) return BAD;
      out[key] = checked;
    }
    return out as { [K in keyof F]: Of<F[K]> };
  };
}

/** Whether `v` is an object of keys: not an array, not `null`. */
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A value of shape `a`, else of shape `b`. */
export function either<A, B>(a: Shape<A>, b: Shape<B>): Shape<A | B> {
  return (v) => {
    const checked = a(v);
    return checked !== BAD ? checked : b(v);
  };
}

/**
 * An object whose `key` names which of `shapes` it is of (each shape checks that key too).
 */
export function tagged(key: string, shapes: Record<string, Shape<unknown>>): Shape<unknown> {
  return (v) => {
    if (!isRecord(v)) return BAD;
    const tag = v[key];
    return typeof tag === "string" && Object.hasOwn(shapes, tag) ? shapes[tag]!(v) : BAD;
  };
}
