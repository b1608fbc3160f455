// @ts-types="@modelcontextprotocol/sdk/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const flags = Deno.args.slice(1);
const t = new StdioClientTransport({
  command: Deno.execPath(),
  args: ["run", "--quiet", "--allow-read", "--allow-env", ...flags, "main.ts"],
  env: { ALLOW_ROOTS: Deno.args[0]!, MAX_FILES_SCANNED: "9000000", SCAN_TIMEOUT_MS: "600000" },
  stderr: "inherit",
});
const c = new Client({ name: "m", version: "0" });
await c.connect(t);
const mem = async () => {
  const s = new TextDecoder().decode(
    (await new Deno.Command("cat", { args: [`/proc/${t.pid}/status`], stdout: "piped" }).output())
      .stdout,
  );
  return `RSS ${/VmRSS:\s+(\d+)/.exec(s)![1]!.slice(0, -3)}MB HWM ${
    /VmHWM:\s+(\d+)/.exec(s)![1]!.slice(0, -3)
  }MB`;
};
console.log("start", await mem());
for (
  const args of [{ timeField: "modified", limit: 100 }, { timeField: "modified", limit: 100 }, {
    timeField: "modified",
    glob: "**/*.md",
  }, { timeField: "modified", sort: "path_asc", limit: 1000 }]
) {
  const t0 = performance.now();
  await c.callTool({ name: "fs.search_by_time", arguments: args });
  console.log(JSON.stringify(args), Math.round(performance.now() - t0), "ms", await mem());
}
await c.close();
