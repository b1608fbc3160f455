/**
 * Atomically exchanges two paths (`renameat2` with `RENAME_EXCHANGE`, Linux only), as an
 * attacker who swaps a folder for a link out of the root would: neither path is ever
 * missing, and the runtime's watcher reports nothing for a path that now leads outside.
 *
 * @module
 */

const AT_FDCWD = -100;
const RENAME_EXCHANGE = 2;

let lib:
  | Deno.DynamicLibrary<{
    renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"]; result: "i32" };
  }>
  | null = null;

/** Whether this system can exchange paths atomically. */
export const canExchange = Deno.build.os === "linux";

/** Exchanges `a` and `b` in one step. */
export function exchange(a: string, b: string): void {
  lib ??= Deno.dlopen("libc.so.6", {
    renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"], result: "i32" },
  });
  const c = (s: string) => new TextEncoder().encode(s + "\0");
  const result = lib.symbols.renameat2(AT_FDCWD, c(a), AT_FDCWD, c(b), RENAME_EXCHANGE);
  if (result !== 0) throw new Error(`renameat2 failed (${result})`);
}
