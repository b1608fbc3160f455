/**
 * The questions a session has put to its roots' services and not had answered (contract
 * §28a): each answered by its reply, or given up at its deadline (silent for its
 * `timeoutMs`, each sign of life (`waiting`, progress) counting it again, and at most
 * `mostMs` in all), or when its root's link is lost; a question whose signal is aborted
 * is cancelled at the service.
 *
 * @module
 */
import type { FromService, ToService } from "../wire/mod.ts";
import type { ScanProgress } from "../walk/mod.ts";

/** What a session asks a service (the messages with an id the session's link sends). */
type Asked = Exclude<
  ToService,
  { t: "hello" } | { t: "cancel" } | { t: "hold" } | { t: "release" }
>;
export type Question = Asked extends infer Q ? Q extends { id: number } ? Omit<Q, "id"> : never
  : never;

/** How long a question may take, its cancel, and where its progress goes. */
export interface AskOptions {
  timeoutMs: number;
  mostMs?: number;
  signal?: AbortSignal;
  onProgress?: (p: ScanProgress) => void;
}

interface Pending {
  root: number;
  resolve(reply: FromService | string): void;
  onProgress?: (progress: ScanProgress) => void;
  /** The service said the call is under way (or waits its turn): its silence counts from now. */
  alive(): void;
}

/** The questions under way, by id. */
export class Questions {
  readonly #pending = new Map<number, Pending>();
  readonly #send: (root: number, message: ToService) => void;
  readonly #silent: (root: number, why: string) => void;

  /** `send`: a message to root's service; `silent`: its service did not answer in time. */
  constructor(
    send: (root: number, message: ToService) => void,
    silent: (root: number, why: string) => void,
  ) {
    this.#send = send;
    this.#silent = silent;
  }

  /** Puts `question` (as `id`) to root `root`'s service: its reply, or why there is none. */
  put(
    root: number,
    id: number,
    question: Question,
    options: AskOptions,
  ): Promise<FromService | string> {
    const { signal, onProgress } = options;
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
        this.#pending.delete(id);
      };
      const aborted = () => {
        done();
        this.#send(root, { t: "cancel", id });
        reject(signal!.reason);
      };
      const silent = () => {
        const why = "its service did not answer in time";
        done();
        this.#silent(root, why);
        resolve(why);
      };
      const until = Date.now() + Math.max(options.mostMs ?? 0, options.timeoutMs);
      let timer = setTimeout(silent, options.timeoutMs);
      const alive = () => {
        clearTimeout(timer);
        timer = setTimeout(silent, Math.min(options.timeoutMs, Math.max(0, until - Date.now())));
      };
      if (signal?.aborted) return aborted();
      signal?.addEventListener("abort", aborted, { once: true });
      this.#pending.set(id, {
        root,
        resolve: (reply) => (done(), resolve(reply)),
        alive,
        ...(onProgress ? { onProgress } : {}),
      });
      this.#send(root, { ...question, id } as ToService);
    });
  }

  /** A reply with an id: whether it answered a question (not progress, not `waiting`). */
  heard(reply: FromService & { id: number }): boolean {
    const pending = this.#pending.get(reply.id);
    if (reply.t === "progress") {
      pending?.alive();
      pending?.onProgress?.(reply.progress);
    } else if (reply.t === "waiting") pending?.alive();
    else if (pending) {
      pending.resolve(reply);
      return true;
    }
    return false;
  }

  /** Ends every question to root `root` (its link is lost) with `why`; all, without `root`. */
  end(why: string, root?: number): void {
    for (const [id, pending] of this.#pending) {
      if (root !== undefined && pending.root !== root) continue;
      this.#pending.delete(id);
      pending.resolve(why);
    }
  }
}
