/**
 * Sizes as people type them on the command line, the way `fd --size` reads them: a whole
 * number of bytes, or one with a unit: `b`; `k`, `m`, `g`, `t` (powers of 1000, also
 * written `kb`...); `ki`, `mi`, `gi`, `ti` (powers of 1024, also `kib`...); any case.
 *
 * Hand-written on purpose: the `bytes` package reads `10k` as 10 (it wants `10kb`, and
 * falls back to parseInt), and none of the others follow fd's units.
 *
 * @module
 */

const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  k: 1e3,
  m: 1e6,
  g: 1e9,
  t: 1e12,
  ki: 1024,
  mi: 1024 ** 2,
  gi: 1024 ** 3,
  ti: 1024 ** 4,
};

/**
 * The number of bytes `text` stands for, or `null` if it is not a size.
 *
 * @example
 * ```ts
 * parseSize("10k"); // 10000
 * parseSize("5Mi"); // 5242880
 * parseSize("1G"); // 1000000000
 * parseSize("12"); // 12
 * ```
 */
export function parseSize(text: string): number | null {
  const match = /^(\d+)(b|[kmgt]i?b?)?$/i.exec(text.trim());
  if (match === null) return null;
  const unit = (match[2] ?? "").toLowerCase().replace(/(.)b$/, "$1");
  const bytes = Number(match[1]) * UNITS[unit]!;
  return Number.isSafeInteger(bytes) ? bytes : null;
}
