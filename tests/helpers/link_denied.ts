/**
 * Run as a program by tests/service/shared_sandbox_test.ts (with `--allow-net` and
 * `--allow-run`, as a session has them): makes the link worker as a session does for one
 * root, asks it for another root's service, and prints what the worker says (JSON).
 *
 * @module
 */
import { spawnLinkWorker } from "../../src/workers/mod.ts";
import { checkSocketFolder } from "../../src/wire/socket_folder.ts";
import type { FromLink, ToLink } from "../../src/link/link_messages.ts";
import { servicePathsOf } from "./sessions.ts";

const mine = servicePathsOf("/nowhere/mine");
const other = servicePathsOf("/nowhere/other");
const problem = checkSocketFolder(mine.folder, Deno.uid()!);
if (problem !== null) throw new Error(problem);
const worker = spawnLinkWorker(mine.folder, [mine.socket], Deno.execPath());
const said = new Promise<FromLink>((resolve) => {
  worker.onmessage = (event: MessageEvent<FromLink>) => resolve(event.data);
});
worker.postMessage(
  {
    type: "init",
    folder: mine.folder,
    uid: Deno.uid()!,
    version: "0",
    build: "0+0",
    command: Deno.execPath(),
    roots: [{ socket: other.socket, name: "x" }],
    idleMs: 0,
  } satisfies ToLink,
);
worker.postMessage({ type: "ensure", root: 0 } satisfies ToLink);
console.log(JSON.stringify(await said));
worker.terminate();
