/**
 * The folders of one root's live index (contract §18): a node per folder that was read,
 * with its listing (or none, to be read again) and the time it was read at, and the
 * counts of what is held (entries, and bytes as `listingBytes` estimates them).
 *
 * @module
 */
import { hostRules } from "../security/mod.ts";
import { DIR, find, type Listing } from "./listing.ts";

/** A folder: its listing (once read) and the folders below it that were read. */
export interface FolderNode {
  listing: Listing | null;
  /** The folder's modification time just before its listing was read. */
  time: number;
  /** What its listing costs, as `listingBytes` estimated it when it was kept. */
  bytes: number;
  children: Map<string, FolderNode>;
}

/** The folders below one root's real path. */
export class FolderTree {
  readonly #root: string;
  readonly #sep = hostRules.sep;
  #top: FolderNode = newNode();
  /** The last folder looked up, for the run of lookups on its entries. */
  #last: { abs: string; node: FolderNode } | null = null;
  /** Entries held. */
  entries = 0;
  /** Bytes held, estimated. */
  bytes = 0;

  constructor(rootReal: string) {
    this.#root = rootReal;
  }

  /** Forgets everything. */
  clear(): void {
    this.#top = newNode();
    this.entries = 0;
    this.bytes = 0;
    this.#last = null;
  }

  /** The node of a folder path at or below the root (made on the way if `make`). */
  node(abs: string, make: boolean): FolderNode | null {
    if (this.#last?.abs === abs) return this.#last.node;
    if (abs !== this.#root && !abs.startsWith(this.#root + this.#sep)) return null;
    let node = this.#top;
    const rel = abs.slice(this.#root.length + 1);
    for (const part of rel === "" ? [] : rel.split(this.#sep)) {
      let child = node.children.get(part);
      if (!child) {
        if (!make) return null;
        child = newNode();
        node.children.set(part, child);
      }
      node = child;
    }
    this.#last = { abs, node };
    return node;
  }

  /** The parent folder's node of an absolute path below the root, and the entry's name. */
  parentOf(abs: string): { parent: FolderNode | null; name: string } {
    const slash = abs.lastIndexOf(this.#sep);
    return { parent: this.node(abs.slice(0, slash), false), name: abs.slice(slash + 1) };
  }

  /**
   * Holds `listing`, read at `time` and costing `bytes`; folders gone from it go with
   * everything below them.
   */
  keep(node: FolderNode, listing: Listing, time: number, bytes: number): void {
    for (const name of [...node.children.keys()]) {
      const i = find(listing.names, name);
      if (i < 0 || !(listing.kinds[i]! & DIR)) this.drop(node, name);
    }
    this.unlist(node);
    this.entries += listing.names.length;
    this.bytes += bytes;
    node.listing = listing;
    node.time = time;
    node.bytes = bytes;
  }

  /** Forgets a folder's listing (it is read again when next needed). */
  unlist(node: FolderNode): void {
    if (!node.listing) return;
    this.entries -= node.listing.names.length;
    this.bytes -= node.bytes;
    node.listing = null;
    this.#last = null;
  }

  /** Forgets the folder `name` in `parent` and everything below it. */
  drop(parent: FolderNode, name: string): void {
    const child = parent.children.get(name);
    if (!child) return;
    parent.children.delete(name);
    this.#forgetBelow(child);
    this.#last = null;
  }

  #forgetBelow(node: FolderNode): void {
    this.unlist(node);
    for (const child of node.children.values()) this.#forgetBelow(child);
  }
}

function newNode(): FolderNode {
  return { listing: null, time: NaN, bytes: 0, children: new Map() };
}
