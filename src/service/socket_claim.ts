/**
 * A service's claim on one root's socket (contract §28a): its lock (socket_sweep.ts) and
 * its listener, each known by its inode. A temp cleaner may remove the socket folder, the
 * socket or the lock while the service lives; the claim notices (`lost`), and the service
 * takes it again (`retake`: the folder made again, the lock held again, a new listener) or,
 * when another service took the lock meanwhile, leaves the root to it. A listener is
 * closed only while the path is still its own: Deno unlinks a unix listener's path when it
 * is closed, whoever's socket is there by then.
 *
 * @module
 */
import { checkSocketFolder, servicePaths } from "../wire/mod.ts";
import { type HeldLock, holdLock, inodeAt } from "./socket_sweep.ts";

/** One root's socket and lock, held by this service. */
export class SocketClaim {
  readonly #folder: string;
  readonly #name: string;
  readonly #socket: string;
  readonly #lockPath: string;
  readonly #uid: number;
  #lock: HeldLock;
  #listener: Deno.Listener;
  #ino: number | null;
  /** Resolved when the listener is replaced or let go: an `accept` under way moves on. */
  #changed: () => void = () => {};
  #change = new Promise<void>((resolve) => (this.#changed = resolve));
  #released = false;
  /** The listeners it closed (others are left open to the process's exit). */
  readonly #closed = new WeakSet<Deno.Listener>();

  private constructor(
    folder: string,
    uid: number,
    name: string,
    lock: HeldLock,
    listener: Deno.Listener,
  ) {
    const { socket, lock: lockPath } = servicePaths(folder, name);
    this.#folder = folder;
    this.#name = name;
    this.#uid = uid;
    this.#socket = socket;
    this.#lockPath = lockPath;
    this.#lock = lock;
    this.#listener = listener;
    this.#ino = inodeAt(socket);
  }

  /**
   * Claims root `name`'s socket in `folder` (of user `uid`): `null` when another service
   * holds its lock. Holding the lock, a socket file there was left by a service that died.
   */
  static async take(folder: string, uid: number, name: string): Promise<SocketClaim | null> {
    const { lock: lockPath } = servicePaths(folder, name);
    const lock = await holdLock(lockPath);
    if (lock === null) return null;
    try {
      return new SocketClaim(folder, uid, name, lock, listen(folder, name));
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /**
   * The next connection, from the listener of the moment (a new one after `retake`);
   * `null` once the claim is released. Rejects with the listener's error (EMFILE, ...).
   */
  async accept(): Promise<Deno.Conn | null> {
    while (!this.#released) {
      const listener = this.#listener;
      const accepting = listener.accept();
      const got = await Promise.race([accepting, this.#change.then(() => null)]);
      if (got !== null) return got;
      // Replaced or let go: a connection this listener takes after all is ended. A listener
      // closed here is waited for: Deno removes its socket file once its accept has ended.
      const settled = accepting.then((conn) => conn.close(), () => {});
      if (this.#closed.has(listener)) await settled;
    }
    return null;
  }

  /** Whether its socket or lock is no longer the file it made (removed, or replaced). */
  lost(): boolean {
    return this.#ino === null || inodeAt(this.#socket) !== this.#ino || !this.#lock.held();
  }

  /**
   * Takes the claim again after it was lost: `true` when this service listens there again,
   * `false` when another service holds the root now (or the folder fails its check).
   */
  async retake(): Promise<boolean> {
    this.#closeIfMine();
    this.#lock.release();
    this.#moved();
    if (checkSocketFolder(this.#folder, this.#uid) !== null) return false;
    const lock = await holdLock(this.#lockPath);
    if (lock === null) return false;
    this.#lock = lock;
    try {
      this.#listener = listen(this.#folder, this.#name);
    } catch {
      return false;
    }
    this.#ino = inodeAt(this.#socket);
    return true;
  }

  /** Closes its listener (removing its socket, if still its own) and lets its lock go. */
  release(): void {
    this.#released = true;
    this.#closeIfMine();
    this.#lock.release();
    this.#moved();
  }

  #moved(): void {
    this.#changed();
    this.#change = new Promise<void>((resolve) => (this.#changed = resolve));
  }

  /**
   * Closes the listener when its path is still its socket, or nothing; otherwise leaves it
   * open (to the process's exit, which unlinks nothing): closing would unlink another's.
   */
  #closeIfMine(): void {
    const now = inodeAt(this.#socket);
    if (now !== null && now !== this.#ino) return;
    try {
      this.#listener.close();
      this.#closed.add(this.#listener);
    } catch { /* closed */ }
  }
}

/** Listens on root `name`'s socket in `folder` (a dead one's file removed first), mode 0600. */
function listen(folder: string, name: string): Deno.Listener {
  const { socket } = servicePaths(folder, name);
  try {
    if (Deno.lstatSync(socket).isSocket) Deno.removeSync(socket);
  } catch { /* none */ }
  const listener = Deno.listen({ transport: "unix", path: socket });
  Deno.chmodSync(socket, 0o600);
  return listener;
}
