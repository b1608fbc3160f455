/**
 * What is known of the tree just before a batch of events (contract §24): the journal's
 * latest image of each entry it touched, and otherwise what the index holds. The index
 * forgets lazily (a listing an event named is read again when next needed, and until then
 * kept as it was), so neither alone is whole; together they are, since every change after
 * a listing was read raised an event the journal took. A folder moved or removed takes
 * with it every entry known below it.
 *
 * @module
 */
import { hostRules } from "../../security/mod.ts";
import { DIR } from "../store/mod.ts";
import type { HeldView } from "../cache/mod.ts";
import type { Image } from "./image.ts";
import type { Journal, Touch } from "./journal.ts";

/** The journal and the held tree, asked together. */
export class Known {
  readonly #view: HeldView;
  readonly #journal: Journal;
  readonly #root: string;

  constructor(view: HeldView, journal: Journal, rootReal: string) {
    this.#view = view;
    this.#journal = journal;
    this.#root = rootReal;
  }

  /** Notes that `from` was moved to `to` (absolute paths), for events still under `from`. */
  moved(from: string, to: string): void {
    this.#journal.moves.moved(this.rel(from), this.rel(to));
  }

  /** Where the folder at `abs` was last moved to, through later moves too (absolute). */
  movedTo(abs: string): string | undefined {
    const to = this.#journal.moves.movedTo(this.rel(abs));
    return to === undefined ? undefined : this.abs(to);
  }

  /** The absolute path of the root-relative `/` path `rel` (`""`: the root). */
  abs(rel: string): string {
    return rel === ""
      ? this.#root
      : this.#root + hostRules.sep + rel.replaceAll("/", hostRules.sep);
  }

  /** The root-relative `/` path of `abs` (below the root). */
  rel(abs: string): string {
    return abs.slice(this.#root.length + 1).replaceAll(hostRules.sep, "/");
  }

  /** The entry at `abs` as known now: its image, absent, or "unknown". */
  image(abs: string): Image | "unknown" {
    const rel = this.rel(abs);
    const touched = this.#journal.latest(rel);
    if (touched !== undefined) return touched;
    const held = this.#view.peek(abs);
    if (held !== "unknown") return held;
    const at = rel.lastIndexOf("/");
    // In its folder's listing, its stat not held: there, as it is now.
    const dir = abs.slice(0, abs.lastIndexOf(hostRules.sep));
    if (this.#view.names(dir) !== null) return "unknown";
    // No listing held: in a folder made, moved in or forgotten since the journal began,
    // what is there is known to the journal, so an entry it does not know was not there;
    // and below a folder made since, nothing was there before it (though the disk, ahead of
    // the events, may say the folder is gone again already).
    const folder = at < 0 ? undefined : this.#journal.latest(rel.slice(0, at));
    if (folder && folder !== "unknown" && folder.kind & DIR) return null;
    for (let up = rel.slice(0, Math.max(at, 0)); up !== "";) {
      if (this.#journal.madeHere(up)) return null;
      const cut = up.lastIndexOf("/");
      up = cut < 0 ? "" : up.slice(0, cut);
    }
    return "unknown";
  }

  /**
   * The kind of the entry at `abs` as known now, where its image is not (its stat was not
   * held, but its folder's listing says what it is), or `null`.
   */
  kindOf(abs: string): number | null {
    const image = this.image(abs);
    if (image === null) return null;
    if (image !== "unknown") return image.kind;
    return this.#journal.kindOf(this.rel(abs)) ?? this.#view.kindOf(abs);
  }

  /** What a batch did to the entry at `abs`: from as known now to `after`. */
  touch(abs: string, after: Image, written = false): Touch {
    const before = this.image(abs);
    const kind = before === "unknown" ? this.kindOf(abs) : null;
    return { path: this.rel(abs), before, after, written, ...(kind === null ? {} : { kind }) };
  }

  /** Whether the folder at `abs` is known (held, or touched and there). */
  isFolder(abs: string): boolean {
    if (abs === this.#root || this.#view.names(abs) !== null) return true;
    const image = this.#journal.latest(this.rel(abs));
    return image !== undefined && image !== null && image !== "unknown" && (image.kind & DIR) !== 0;
  }

  /** The names known in the folder at `abs` now (held in its listing, or touched). */
  children(abs: string): string[] {
    const names = new Set<string>();
    for (const { name } of this.#view.names(abs) ?? []) names.add(name);
    for (const name of this.#journal.childrenOf(abs === this.#root ? "" : this.rel(abs))) {
      names.add(name);
    }
    return [...names];
  }

  /**
   * Every entry known below the folder at `abs` now (absolute paths, folders first); with
   * `justGone`, also those its last batch found gone (a move's source: its removal may come
   * a batch before the move that explains it); with `through`, also what is known below
   * folders known gone; it stops once it has more than `most`.
   */
  below(abs: string, justGone = false, through = false, most = Infinity): string[] {
    const out: string[] = [];
    const sep = hostRules.sep;
    const visit = (dir: string, depth: number) => {
      for (const name of this.children(dir)) {
        if (out.length > most) return;
        const path = dir + sep + name;
        let image = this.image(path);
        if (image === null && justGone) image = this.#journal.beforeLast(this.rel(path)) ?? null;
        if (image === null) {
          // `through`: below a folder known gone too, where the journal still knows entries.
          if (through && depth < 4096) visit(path, depth + 1);
          continue;
        }
        out.push(path);
        const isFolder = image === "unknown"
          ? this.#view.names(path) !== null
          : (image.kind & DIR) !== 0;
        if (isFolder && depth < 4096) visit(path, depth + 1);
      }
    };
    visit(abs, 0);
    return out;
  }
}
