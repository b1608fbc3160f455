/**
 * The program's build (contract §28a): its version and a digest of its code, which name a
 * service, so that a session never joins a service of other code. From source, the digest
 * covers `main.ts`, `deno.json` and every module of `src/` as they are on disk when the
 * server starts (what it loaded); a compiled binary carries the digest its build wrote
 * (`build_stamp.json`, made by `.github/scripts/compile.ts` from the same files).
 *
 * @module
 */

/** The file a compiled binary carries its digest in, beside `main.ts`. */
export const BUILD_STAMP = "build_stamp.json";

/** How many hex digits of the digest a build names. */
const DIGITS = 12;

/** The files of the program below `code` (its folder) whose bytes make its digest, sorted. */
export function codeFiles(code: string): string[] {
  const out = [`${code}/main.ts`, `${code}/deno.json`];
  const below = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) below(path);
      else if (entry.isFile && entry.name.endsWith(".ts")) out.push(path);
    }
  };
  below(`${code}/src`);
  return out.sort();
}

/** The digest of the code below `code` (hex), from its files' names and bytes. */
export async function codeDigest(code: string): Promise<string> {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (const file of codeFiles(code)) {
    parts.push(encoder.encode(`${file.slice(code.length)}\0`));
    const bytes = Deno.readFileSync(file);
    parts.push(encoder.encode(`${bytes.length}\0`), bytes);
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, DIGITS);
}

/**
 * The build of the program whose code is in `code`: `<version>+<digest>`, the digest from
 * its stamp when it has one (a compiled binary), else from its files; `null` when neither
 * can be read (the server then keeps its own index).
 */
export async function buildOf(version: string, code: string): Promise<string | null> {
  try {
    const stamp = JSON.parse(Deno.readTextFileSync(`${code}/${BUILD_STAMP}`)) as {
      digest?: unknown;
    };
    if (typeof stamp.digest === "string" && /^[0-9a-f]+$/.test(stamp.digest)) {
      return `${version}+${stamp.digest.slice(0, DIGITS)}`;
    }
  } catch { /* from source */ }
  try {
    return `${version}+${await codeDigest(code)}`;
  } catch {
    return null;
  }
}
