/**
 * What the session's main isolate and its link worker (link_worker.ts) say to each other.
 *
 * @module
 */
import type { ServiceFacts } from "../wire/mod.ts";

/** A root's service, as the link worker reaches it. */
export interface LinkRoot {
  socket: string;
  /** Its service's name (the socket's, socket_folder.ts). */
  name: string;
}

/** To the link worker. */
export type ToLink =
  | {
    type: "init";
    folder: string;
    uid: number;
    version: string;
    build: string;
    roots: LinkRoot[];
    /** The server's own executable, which starts a service. */
    command: string;
    /** How long a service lives on after its last session, as this session asks (its hello). */
    idleMs: number;
  }
  /** Connect to root `root`'s service, starting it if none answers. */
  | { type: "ensure"; root: number }
  /**
   * A message for root `root`'s service, made a line of JSON here (a string crosses to the
   * worker for far less than the object it holds: a page of 100 matches 0.03 ms against 0.2).
   */
  | { type: "send"; root: number; line: string }
  /** Let go of the connection (a service that hung). */
  | { type: "drop"; root: number }
  /** Start one service for these roots (after `start?`): its arguments, and its stdin. */
  | { type: "start"; roots: number[]; args: string[]; input: string }
  /** No service is started for these roots (after `start?`), for `why`. */
  | { type: "unstarted"; roots: number[]; why: string };

/** From the link worker. */
export type FromLink =
  /** Connected; `started`: this session started the service. */
  | { type: "up"; root: number; facts: ServiceFacts; started: boolean }
  /** Not connected, and why; `retry`: a later call may try again. */
  | { type: "down"; root: number; why: string; retry: boolean }
  /** A line its service wrote (a `FromService` message), parsed by the main isolate. */
  | { type: "message"; root: number; line: string }
  /** No service answers for these roots: the main isolate says how to start one for them. */
  | { type: "start?"; roots: number[] };
