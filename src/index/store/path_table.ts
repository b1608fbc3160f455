/**
 * Root-relative paths interned compactly, for the journal of changes (contract §24a), as the
 * held tree keeps its names: a path is a node number with its folder's node and its own name, the
 * names' UTF-8 bytes in one pool and every number in typed arrays outside the V8 heap, so
 * that a million paths cost the heap nothing per path. A node is found by its folder and
 * name through an open-addressing table; a folder's nodes are chained (first child, next
 * sibling). Nodes are never freed one by one: {@linkcode PathTable.rebuilt} keeps only
 * those still wanted, in a new table, once enough are dead.
 *
 * @module
 */
import { type Column, grown } from "./typed_growth.ts";

/** The root's own node: every path hangs below it. */
export const ROOT_NODE = 0;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Root-relative `/` paths interned as nodes. */
export class PathTable {
  #parent = new Int32Array(1024);
  #nameAt = new Int32Array(1024);
  #nameLength = new Int32Array(1024);
  #hash = new Int32Array(1024);
  #firstChild = new Int32Array(1024).fill(-1);
  #nextSibling = new Int32Array(1024).fill(-1);
  #pool = new Uint8Array(16 * 1024);
  #poolUsed = 0;
  #slots = new Int32Array(2048).fill(-1);
  #count = 1; // the root
  #scratch = new Uint8Array(1024);
  /** Decoded paths of folder nodes, while a question is answered (cleared between). */
  readonly #paths = new Map<number, string>();

  /** Nodes made (the root among them). */
  get size(): number {
    return this.#count;
  }

  /** Bytes held outside the heap. */
  get bytes(): number {
    const cols = [this.#parent, this.#nameAt, this.#nameLength, this.#hash, this.#firstChild];
    return cols.reduce((sum, c) => sum + c.byteLength, 0) + this.#nextSibling.byteLength +
      this.#pool.byteLength + this.#slots.byteLength;
  }

  /** The node of `path` ("" the root); with `make`, made (and its folders) when new. */
  find(path: string, make: true): number;
  find(path: string, make?: false): number | -1;
  find(path: string, make = false): number {
    let node = ROOT_NODE;
    if (path === "") return node;
    let from = 0;
    for (;;) {
      const cut = path.indexOf("/", from);
      const name = cut < 0 ? path.slice(from) : path.slice(from, cut);
      node = this.child(node, name, make);
      if (node < 0 || cut < 0) return node;
      from = cut + 1;
    }
  }

  /** The node named `name` in folder node `folder`; with `make`, made when new. */
  child(folder: number, name: string, make = false): number {
    const length = this.#encode(name);
    const h = hashOf(folder, this.#scratch, length);
    const mask = this.#slots.length - 1;
    for (let i = h & mask;; i = (i + 1) & mask) {
      const node = this.#slots[i]!;
      if (node < 0) break;
      if (this.#hash[node] === h && this.#parent[node] === folder && this.#same(node, length)) {
        return node;
      }
    }
    if (!make) return -1;
    return this.#add(folder, length, h);
  }

  /** The folder node of `node` (-1 for the root). */
  parentOf(node: number): number {
    return node === ROOT_NODE ? -1 : this.#parent[node]!;
  }

  /** The nodes in folder node `folder`. */
  *children(folder: number): Iterable<number> {
    for (let c = this.#firstChild[folder]!; c >= 0; c = this.#nextSibling[c]!) yield c;
  }

  /** Whether any node lies in folder node `folder`. */
  hasChildren(folder: number): boolean {
    return this.#firstChild[folder]! >= 0;
  }

  /** The name of `node`. */
  nameOf(node: number): string {
    const at = this.#nameAt[node]!;
    return decoder.decode(this.#pool.subarray(at, at + this.#nameLength[node]!));
  }

  /** The root-relative path of `node` (folders' paths kept until {@linkcode forgetPaths}). */
  pathOf(node: number): string {
    if (node === ROOT_NODE) return "";
    const parent = this.#parent[node]!;
    const name = this.nameOf(node);
    if (parent === ROOT_NODE) return name;
    let above = this.#paths.get(parent);
    if (above === undefined) this.#paths.set(parent, above = this.pathOf(parent));
    return above + "/" + name;
  }

  /** Lets go of the paths {@linkcode pathOf} kept. */
  forgetPaths(): void {
    this.#paths.clear();
  }

  /**
   * A new table with only the nodes `keep` wants (and their folders), and `moved(old, new)`
   * told of each, in node order: what was kept of a node is the caller's to carry over.
   */
  rebuilt(keep: (node: number) => boolean, moved: (from: number, to: number) => void): PathTable {
    const table = new PathTable();
    const map = new Int32Array(this.#count).fill(-1);
    map[ROOT_NODE] = ROOT_NODE;
    const place = (node: number): number => {
      if (map[node]! >= 0) return map[node]!;
      const folder = place(this.#parent[node]!);
      const made = table.child(folder, this.nameOf(node), true);
      map[node] = made;
      return made;
    };
    for (let node = 1; node < this.#count; node++) if (keep(node)) place(node);
    for (let node = 0; node < this.#count; node++) if (map[node]! >= 0) moved(node, map[node]!);
    return table;
  }

  #encode(name: string): number {
    let { read, written } = encoder.encodeInto(name, this.#scratch);
    while (read! < name.length) {
      this.#scratch = new Uint8Array(this.#scratch.length * 4);
      ({ read, written } = encoder.encodeInto(name, this.#scratch));
    }
    return written!;
  }

  #same(node: number, length: number): boolean {
    if (this.#nameLength[node] !== length) return false;
    const at = this.#nameAt[node]!;
    const pool = this.#pool;
    const bytes = this.#scratch;
    for (let i = 0; i < length; i++) if (pool[at + i] !== bytes[i]) return false;
    return true;
  }

  #add(folder: number, length: number, h: number): number {
    const node = this.#count++;
    if (node >= this.#parent.length) this.#grow();
    while (this.#poolUsed + length > this.#pool.length) {
      this.#pool = grown(this.#pool, this.#pool.length * 2);
    }
    this.#pool.set(this.#scratch.subarray(0, length), this.#poolUsed);
    this.#nameAt[node] = this.#poolUsed;
    this.#nameLength[node] = length;
    this.#poolUsed += length;
    this.#parent[node] = folder;
    this.#hash[node] = h;
    this.#nextSibling[node] = this.#firstChild[folder]!;
    this.#firstChild[folder] = node;
    if (2 * this.#count > this.#slots.length) this.#rehash();
    else this.#place(node);
    return node;
  }

  #place(node: number): void {
    const mask = this.#slots.length - 1;
    let i = this.#hash[node]! & mask;
    while (this.#slots[i]! >= 0) i = (i + 1) & mask;
    this.#slots[i] = node;
  }

  #rehash(): void {
    this.#slots = new Int32Array(this.#slots.length * 2).fill(-1);
    for (let node = 1; node < this.#count; node++) this.#place(node);
  }

  #grow(): void {
    const length = this.#parent.length * 2;
    const grow = <T extends Column>(c: T) => grown(c, length);
    this.#parent = grow(this.#parent);
    this.#nameAt = grow(this.#nameAt);
    this.#nameLength = grow(this.#nameLength);
    this.#hash = grow(this.#hash);
    const first = this.#firstChild.length;
    this.#firstChild = grow(this.#firstChild);
    this.#firstChild.fill(-1, first);
    this.#nextSibling = grow(this.#nextSibling);
    this.#nextSibling.fill(-1, first);
  }
}

/** FNV-1a of a folder node and a name's bytes, as a non-negative 31-bit number. */
function hashOf(folder: number, bytes: Uint8Array, length: number): number {
  let h = 0x811c9dc5 ^ folder;
  h = Math.imul(h, 0x01000193);
  for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h & 0x7fffffff;
}
