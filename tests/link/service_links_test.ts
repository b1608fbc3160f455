/**
 * A session's links to its services (service_links.ts), with a stand-in for the link
 * worker: a call that waits its turn at a busy service's index, which says so each second,
 * is waited for past the deadline of silence (and no longer than its bound); a service
 * silent for that deadline is let go; a service none answers for is started at once, a call
 * waiting for it, unless this session walks (then once its walks end, its calls walking).
 */
import assert from "node:assert/strict";
import type { FromLink, ToLink } from "../../src/link/link_messages.ts";
import { ServiceLinks } from "../../src/link/service_links.ts";
import type { FromService } from "../../src/wire/mod.ts";
import { until } from "../helpers/until.ts";

/** A link worker stand-in: the service is up at once; `onAsk` plays the service. */
function standIn(onAsk: (id: number, say: (message: FromService) => void) => void): Worker {
  const worker = {
    onmessage: null as ((event: MessageEvent<FromLink>) => void) | null,
    postMessage(message: ToLink) {
      const tell = (m: FromLink) => queueMicrotask(() => worker.onmessage?.({ data: m } as never));
      if (message.type === "ensure") {
        tell({
          type: "up",
          root: 0,
          facts: { pid: 1, build: "0+0", run: "r", startedAt: 0, sessions: 1, idleMs: 0 },
          started: false,
        });
      } else if (message.type === "send") {
        const asked = JSON.parse(message.line) as { id?: number };
        const line = (m: FromService) => JSON.stringify(m);
        if (asked.id !== undefined) {
          onAsk(asked.id, (m) => tell({ type: "message", root: 0, line: line(m) }));
        }
      }
    },
    terminate() {},
  };
  return worker as unknown as Worker;
}

const SETUP = {
  folder: "/nowhere",
  uid: 0,
  version: "0",
  build: "0+0",
  roots: [],
  command: "x",
  idleMs: 0,
};

async function linked(
  onAsk: Parameters<typeof standIn>[0],
  log?: (line: string) => void,
): Promise<ServiceLinks> {
  const links = new ServiceLinks(
    { ...SETUP, roots: [{} as never] },
    standIn(onAsk),
    log ? { log } : {},
  );
  links.ensure(0);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.ok(links.up(0));
  return links;
}

const STATUS = { t: "status" } as const;

Deno.test("service links: a call said to wait its turn is waited for past the silence deadline", async () => {
  const links = await linked((id, say) => {
    // Waiting, said ten times at a tenth of the deadline, then the answer.
    let said = 0;
    const timer = setInterval(() => {
      if (++said <= 10) return say({ t: "waiting", id });
      clearInterval(timer);
      say({ t: "journal", id, why: "answered" });
    }, 20);
  });
  const reply = await links.ask(0, STATUS, { timeoutMs: 200, mostMs: 10_000 });
  assert.deepEqual(reply, { t: "journal", id: 1, why: "answered" });
  assert.ok(links.up(0), "the service is kept");
  links.close();
});

Deno.test("service links: a silent service is let go at the deadline; waiting is bounded", async () => {
  const logged: string[] = [];
  const silent = await linked(() => {}, (line) => logged.push(line));
  assert.equal(
    await silent.ask(0, STATUS, { timeoutMs: 50, mostMs: 10_000 }),
    "its service did not answer in time",
  );
  assert.ok(!silent.up(0), "let go");
  // Said in the session's log (contract §28a: when a link drops, and why).
  assert.ok(
    logged.some((line) => line.includes("no link to its index service: its service did not")),
    logged.join("\n"),
  );
  silent.close();
  // Said to wait for ever: given up at the bound.
  let timer: ReturnType<typeof setInterval> | undefined;
  const waiting = await linked((id, say) => {
    timer = setInterval(() => say({ t: "waiting", id }), 10);
  });
  assert.equal(
    await waiting.ask(0, STATUS, { timeoutMs: 100, mostMs: 300 }),
    "its service did not answer in time",
  );
  clearInterval(timer);
  waiting.close();
});

Deno.test("service links: a walk tells its service to hold its build, also once the link is up", () => {
  const sent: string[] = [];
  let tell: (m: FromLink) => void = () => {};
  const worker = {
    onmessage: null as ((event: MessageEvent<FromLink>) => void) | null,
    postMessage(message: ToLink) {
      tell = (m) => worker.onmessage?.({ data: m } as never);
      if (message.type === "send") {
        const m = JSON.parse(message.line) as { t: string; id?: number };
        sent.push(`${m.t} ${m.id}`);
      }
    },
    terminate() {},
  };
  const links = new ServiceLinks({ ...SETUP, roots: [{} as never] }, worker as unknown as Worker);
  links.ensure(0);
  // A walk begun before the link is up: told as the link comes up, released at its end.
  const first = links.walking(0);
  assert.deepEqual(sent, []);
  const facts = { pid: 1, build: "0+0", run: "r", startedAt: 0, sessions: 1, idleMs: 0 };
  tell({ type: "up", root: 0, facts, started: true });
  assert.deepEqual(sent, ["hold 1"]);
  const second = links.walking(0);
  assert.deepEqual(sent, ["hold 1", "hold 2"]);
  first();
  first(); // once
  assert.deepEqual(sent, ["hold 1", "hold 2", "release 1"]);
  // The link drops: the service let its holds go; up again, the walk under way is told again.
  tell({ type: "down", root: 0, why: "gone", retry: true });
  links.ensure(0);
  tell({ type: "up", root: 0, facts, started: false });
  assert.deepEqual(sent, ["hold 1", "hold 2", "release 1", "hold 2"]);
  second();
  assert.deepEqual(sent.at(-1), "release 2");
  links.close();
});

Deno.test("service links: a line from the service that is not JSON ends its link, said why", async () => {
  const posted: ToLink[] = [];
  const worker = {
    onmessage: null as ((event: MessageEvent<FromLink>) => void) | null,
    postMessage(message: ToLink) {
      posted.push(message);
      const tell = (m: FromLink) => queueMicrotask(() => worker.onmessage?.({ data: m } as never));
      const facts = { pid: 1, build: "0+0", run: "r", startedAt: 0, sessions: 1, idleMs: 0 };
      if (message.type === "ensure") tell({ type: "up", root: 0, facts, started: false });
      else if (message.type === "send") tell({ type: "message", root: 0, line: "{half a line" });
    },
    terminate() {},
  };
  const logged: string[] = [];
  const links = new ServiceLinks({ ...SETUP, roots: [{} as never] }, worker as unknown as Worker, {
    log: (line) => logged.push(line),
  });
  links.ensure(0);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.ok(links.up(0));
  const why = "its service sent a line that could not be read (a line was not JSON)";
  assert.equal(await links.ask(0, STATUS, { timeoutMs: 1000, mostMs: 10_000 }), why);
  assert.ok(!links.up(0), "its link is down");
  assert.ok(posted.some((m) => m.type === "drop"), "its connection is ended");
  assert.ok(logged.some((line) => line.includes(why)), logged.join("\n"));
  links.close();
});

/** A link worker stand-in that keeps what it is sent; `tell` answers as the worker. */
function recorder() {
  const posted: ToLink[] = [];
  const worker = {
    onmessage: null as ((event: MessageEvent<FromLink>) => void) | null,
    postMessage(message: ToLink) {
      posted.push(message);
    },
    terminate() {},
  };
  const tell = (m: FromLink) => worker.onmessage?.({ data: m } as never);
  const links = new ServiceLinks({ ...SETUP, roots: [{} as never] }, worker as unknown as Worker);
  return { links, tell, starts: () => posted.filter((m) => m.type === "start").length, posted };
}

Deno.test("service links: a service none answers for is started at once, a call waiting for it", async () => {
  const { links, tell, starts, posted } = recorder();
  // No walk of this session runs: started at once, and a call waits for it (contract §28a).
  links.ensure(0);
  tell({ type: "start?", roots: [0] });
  assert.equal(starts(), 1);
  let asked = false;
  const reply = links.ask(0, STATUS, { timeoutMs: 1000, mostMs: 1000 }).then((r) => {
    asked = true;
    return r;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(asked, false, "the call waits for the service being started");
  const facts = { pid: 1, build: "0+0", run: "r", startedAt: 0, sessions: 1, idleMs: 0 };
  tell({ type: "up", root: 0, facts, started: true });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(posted.at(-1)?.type, "send", "asked of the service once it is up");
  tell({ type: "message", root: 0, line: JSON.stringify({ t: "journal", id: 1, why: "ok" }) });
  assert.deepEqual(await reply, { t: "journal", id: 1, why: "ok" });
  links.close();
});

Deno.test("service links: while the session walks, its service is started once the walks end, calls walking meanwhile", async () => {
  const { links, tell, starts } = recorder();
  const walk = links.walking(0);
  links.ensure(0);
  tell({ type: "start?", roots: [0] });
  assert.equal(starts(), 0, "not while it walks");
  // The call is not kept waiting for a service not started yet: it walks.
  const why = await links.ask(0, STATUS, { timeoutMs: 1000, mostMs: 1000 });
  assert.equal(why, "its service is being reached");
  walk();
  await until(() => starts() === 1, "the start once the walk left the disk");
  links.close();
});
