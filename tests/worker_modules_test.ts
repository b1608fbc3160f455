/**
 * What each worker loads (src/worker_modules.ts): never zod or the MCP SDK, which only the
 * server's own isolate needs, nor any other npm package or `node:` module until a call asks
 * for one (picomatch for a glob, `ignore` for ignore files). Loaded in a worker, zod alone cost it about 5.5 MB of PSS (an
 * index worker 22 → 16.4 MB, a scan worker 21.7 → 14.3 MB; docs/benchmarks.md), once per
 * root's index worker and per scan worker. Nor does a service's own isolate load the SDK.
 * Read from `deno info`'s graph, following the imports that run (a type-only import is
 * erased, so it loads nothing; a dynamic one runs only in its mode).
 */
import assert from "node:assert/strict";
import { WORKER_MODULES } from "../src/worker_modules.ts";
import { childEnv } from "./helpers/spawn.ts";

interface Dependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}
interface Info {
  roots: string[];
  modules: { specifier: string; dependencies?: Dependency[] }[];
  redirects: Record<string, string>;
}

/** What `deno <args>` prints, run in the project's folder; it must succeed. */
async function denoSays(args: string[]): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: new URL("..", import.meta.url),
    env: childEnv(),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/**
 * The npm packages (names) and `node:` modules whose code runs when `url` is loaded (its
 * dynamic imports not).
 */
async function npmLoaded(url: URL): Promise<Set<string>> {
  const info: Info = JSON.parse(
    await denoSays(["info", "--json", "--lock=tests/deno.lock", url.href]),
  );
  const byName = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (specifier: string) => {
    const at = info.redirects[specifier] ?? specifier;
    if (seen.has(at)) return;
    seen.add(at);
    const npm = /^npm:\/?(@?[^@/]+(?:\/[^@/]+)?)@/.exec(at);
    if (npm) return void packages.add(npm[1]!);
    if (at.startsWith("node:")) return void packages.add(at);
    for (const dep of byName.get(at)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) visit(dep.code.specifier);
    }
  };
  for (const root of info.roots) visit(root);
  return packages;
}

for (const [name, url] of Object.entries(WORKER_MODULES)) {
  Deno.test(`worker modules: the ${name} worker loads neither zod nor the MCP SDK`, async () => {
    const loaded = await npmLoaded(url);
    assert.ok(!loaded.has("zod"), `${name}: ${[...loaded].join(", ")}`);
    assert.ok(!loaded.has("@modelcontextprotocol/sdk"), `${name}: ${[...loaded].join(", ")}`);
  });
  Deno.test(`worker modules: the ${name} worker loads no npm package and no node: module`, async () => {
    // Either starts Deno's Node layer in the isolate: about 4 MB of PSS each (an index worker
    // loaded 16.8 → 11.4 MB, a watch worker 10.0 → 6.6 MB; contract §28a: a root of a few files
    // adds at most 10 MB). picomatch and `ignore` come when a call asks for them (dynamic).
    assert.deepEqual([...await npmLoaded(url)], [], name);
  });
}

Deno.test("worker modules: main.ts loads each mode's modules only in that mode", async () => {
  // A service's isolate held the MCP SDK (with ajv) and the command line it never runs,
  // 7-12 MB of PSS a service (docs/benchmarks.md): main.ts imports each mode dynamically.
  const main = await npmLoaded(new URL("../main.ts", import.meta.url));
  assert.ok(!main.has("zod") && !main.has("@modelcontextprotocol/sdk"), [...main].join(", "));
  const service = await npmLoaded(new URL("../src/service/mod.ts", import.meta.url));
  assert.ok(!service.has("@modelcontextprotocol/sdk"), [...service].join(", "));
});

Deno.test("worker modules: a service's isolate loads no npm package and no node: module", async () => {
  // zod (its wire's checks, now src/service/shapes.ts), `node:v8` and `node:url` started
  // Deno's Node layer in every service (a service of five small roots, with the matchers
  // also left out: 122 → 115 MB of PSS, docs/benchmarks.md).
  const main = await npmLoaded(new URL("../main.ts", import.meta.url));
  const service = await npmLoaded(new URL("../src/service/mod.ts", import.meta.url));
  assert.deepEqual([...main, ...service], []);
});

Deno.test("worker modules: a service's isolate, told so as main.ts tells it, loads no matcher at import", async () => {
  // picomatch and `ignore` were loaded at import in every isolate not a worker's, a
  // service's too, which matches nothing itself (src/isolate_role.ts).
  const src = new URL("../src/", import.meta.url).href;
  // main.ts's own imports first (its `main` does not run: not the main module here).
  const code = `
    await import("${src}../main.ts");
    const { matchersAtImport } = await import("${src}isolate_role.ts");
    matchersAtImport.now = false;
    await import("${src}service/mod.ts");
    const { globsLoaded } = await import("${src}query/mod.ts");
    console.log(JSON.stringify({ globs: globsLoaded() }));`;
  const said = await denoSays(["eval", "--lock=tests/deno.lock", code]);
  assert.deepEqual(JSON.parse(said), { globs: false });
  const main = Deno.readTextFileSync(new URL("../main.ts", import.meta.url));
  const service = main.indexOf('await import("./src/service/mod.ts")');
  assert.ok(
    main.lastIndexOf("matchersAtImport.now = false", service) > 0,
    "main.ts tells it first",
  );
});
