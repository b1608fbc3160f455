/**
 * How tests start Deno processes (the server, the CLI, a stand-in for the binary): with
 * a cleared environment, plus the variables that say where Deno's cache is and how to
 * reach the registry, plus what the test asks for, and nothing else. A child so started
 * finds every package its parent has, and, should it fetch one, uses the parent's TLS and
 * proxy settings: the suite passes on a machine whose default cache is cold.
 *
 * @module
 */

/** Passed on from the test's environment to every child, when set. */
export const PASSED_ON: readonly string[] = [
  "DENO_CERT",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
  "NODE_EXTRA_CA_CERTS",
];

let cache: string | undefined;

/** The Deno cache this process uses: `DENO_DIR`, or where Deno resolves it by default. */
export function denoDir(): string {
  if (cache !== undefined) return cache;
  const set = Deno.env.get("DENO_DIR");
  if (set) return (cache = set);
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return (cache =
    (JSON.parse(new TextDecoder().decode(out.stdout)) as { denoDir: string }).denoDir);
}

/**
 * The whole environment of a child: `DENO_DIR` (the cache this process resolved), the
 * TLS and proxy variables of {@linkcode PASSED_ON} that are set here, and `env` (which
 * wins).
 */
export function childEnv(env: Record<string, string> = {}): Record<string, string> {
  const passed: Record<string, string> = { DENO_DIR: denoDir() };
  for (const name of PASSED_ON) {
    const value = Deno.env.get(name);
    if (value !== undefined) passed[name] = value;
  }
  // The index services a test's server starts (contract §28) end with its last session.
  return { ...passed, SHARED_INDEX_IDLE: "0", ...env };
}

/** What a finished child printed. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@linkcode runDeno}. */
export interface RunOptions {
  /** The child's own variables, besides what {@linkcode childEnv} passes on. */
  env?: Record<string, string>;
  cwd?: string | URL;
  /** Written to its standard input, which is then closed (default: no input). */
  input?: string;
}

/** Runs `deno <args>` with {@linkcode childEnv} only, and waits for it. */
export async function runDeno(args: string[], options: RunOptions = {}): Promise<Ran> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    env: childEnv(options.env),
    clearEnv: true,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stdin: options.input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.input));
    await writer.close();
  }
  const out = await child.output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

/** Shell `export` lines for {@linkcode childEnv}: what a launcher script sets before it runs Deno. */
export function exportLines(env: Record<string, string> = {}): string {
  return Object.entries(childEnv(env))
    .map(([name, value]) => `export ${name}='${value.replaceAll("'", `'\\''`)}'\n`)
    .join("");
}
