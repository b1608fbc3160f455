/**
 * A worker that sweeps one socket folder as every service and test does at its start or end
 * (`sweepDead`), over and over until it is told to stop, then says how many sweeps it made.
 * Test-only.
 *
 * @module
 */
import { sweepDead } from "../../src/service/socket_sweep.ts";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<string | null>) => void) | null;
  postMessage(message: number): void;
};
let folder: string | null = null;
let sweeps = 0;

scope.onmessage = (event) => {
  if (event.data === null) return scope.postMessage(sweeps);
  folder = event.data;
  const sweep = () => {
    if (folder === null) return;
    for (let i = 0; i < 50; i++, sweeps++) sweepDead(folder, new Set());
    setTimeout(sweep, 0); // between rounds, the message to stop can come in
  };
  sweep();
};
