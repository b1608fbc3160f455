/**
 * Where a journal keeps its images (contract §24a: a compact journal): typed columns
 * outside the V8 heap, about 50 bytes a step. Per path node (path_table.ts): whether it is
 * an entry of the journal, its image before its first kept step (absent, as seen, or not
 * known, with its kind where that is known), its last step and whether a move went into
 * it. Per step, in the order the steps were recorded (so in position order): its position,
 * its node, its image after the batch, whether an event wrote it, the node it was moved
 * from, and the node's step before it. Steps are numbered for good (the oldest are dropped
 * from the front, and the columns moved down now and then), so no number ever changes.
 *
 * @module
 */
import { type Column, firstAbove, grown } from "../store/mod.ts";
import type { Image, Seen } from "./image.ts";

/** A node's base: not an entry of the journal, absent, as seen, or not known. */
export const NOT_ENTRY = 0;
export const ABSENT = 1;
export const SEEN = 2;
export const UNKNOWN = 3;

/** A kind not known (the image of an entry the index held no stat of). */
export const NO_KIND = 255;

const PRESENT = 1;
const WRITTEN = 2;

/** An image, or "unknown" with the entry's kind when that is known. */
export type Known = Image | "unknown";

/** The images of a journal's nodes and steps. */
export class JournalColumns {
  // Per node.
  base = new Uint8Array(1024);
  baseKind = new Uint8Array(1024);
  #baseSize = new Float64Array(1024);
  #baseMtime = new Float64Array(1024);
  #baseBirth = new Float64Array(1024);
  #baseIno = new Float64Array(1024);
  lastStep = new Int32Array(1024).fill(-1);
  movedInto = new Uint8Array(1024);
  // Per step, at `number - offset`.
  stepPos = new Int32Array(1024);
  stepNode = new Int32Array(1024);
  stepFrom = new Int32Array(1024);
  stepPrev = new Int32Array(1024);
  #stepFlags = new Uint8Array(1024);
  #stepKind = new Uint8Array(1024);
  #stepSize = new Float64Array(1024);
  #stepMtime = new Float64Array(1024);
  #stepBirth = new Float64Array(1024);
  #stepIno = new Float64Array(1024);
  /** The number of the step at index 0. */
  offset = 0;
  /** The number of the oldest step kept. */
  first = 0;
  /** The number the next step gets. */
  next = 0;

  /** Bytes held outside the heap. */
  get bytes(): number {
    const nodes = this.base.length * (1 + 1 + 8 * 4 + 4 + 1);
    const steps = this.stepPos.length * (4 * 4 + 1 + 1 + 8 * 4);
    return nodes + steps;
  }

  /** Makes room for node numbers below `count`. */
  nodes(count: number): void {
    let length = this.base.length;
    if (count <= length) return;
    while (length < count) length *= 2;
    const grow = <T extends Column>(c: T) => grown(c, length);
    const old = this.lastStep.length;
    this.base = grow(this.base);
    this.baseKind = grow(this.baseKind);
    this.#baseSize = grow(this.#baseSize);
    this.#baseMtime = grow(this.#baseMtime);
    this.#baseBirth = grow(this.#baseBirth);
    this.#baseIno = grow(this.#baseIno);
    this.lastStep = grow(this.lastStep);
    this.lastStep.fill(-1, old);
    this.movedInto = grow(this.movedInto);
  }

  /** Sets node `n`'s base to `image` (`kind`: its kind when the image is "unknown"). */
  setBase(n: number, image: Known, kind = NO_KIND): void {
    if (image === null) this.base[n] = ABSENT;
    else if (image === "unknown") {
      this.base[n] = UNKNOWN;
      this.baseKind[n] = kind;
    } else {
      this.base[n] = SEEN;
      this.baseKind[n] = image.kind;
      this.#baseSize[n] = image.size;
      this.#baseMtime[n] = image.mtime;
      this.#baseBirth[n] = image.birth;
      this.#baseIno[n] = image.ino ?? NaN;
    }
  }

  /** Node `n`'s base. */
  baseOf(n: number): Known {
    const state = this.base[n];
    if (state === ABSENT) return null;
    if (state !== SEEN) return "unknown";
    return seen(
      this.baseKind[n]!,
      this.#baseSize[n]!,
      this.#baseMtime[n]!,
      this.#baseBirth[n]!,
      this.#baseIno[n]!,
    );
  }

  /** Node `n`'s kind before its first kept step, where known. */
  baseKindOf(n: number): number | null {
    const state = this.base[n];
    return state === SEEN || (state === UNKNOWN && this.baseKind[n] !== NO_KIND)
      ? this.baseKind[n]!
      : null;
  }

  /** Sets node `n`'s base to step `s`'s image. */
  baseFromStep(n: number, s: number): void {
    this.setBase(n, this.imageOf(s));
  }

  /** Copies node `from`'s columns to node `to` of `into`. */
  moveNode(from: number, into: JournalColumns, to: number): void {
    into.base[to] = this.base[from]!;
    into.baseKind[to] = this.baseKind[from]!;
    into.#baseSize[to] = this.#baseSize[from]!;
    into.#baseMtime[to] = this.#baseMtime[from]!;
    into.#baseBirth[to] = this.#baseBirth[from]!;
    into.#baseIno[to] = this.#baseIno[from]!;
    into.lastStep[to] = this.lastStep[from]!;
    into.movedInto[to] = this.movedInto[from]!;
  }

  /** Node numbers changed (path_table.ts `rebuilt`): the steps' nodes follow `map`. */
  renumber(map: Int32Array, into: JournalColumns): void {
    into.#steps(this);
    for (let s = this.first; s < this.next; s++) {
      const i = s - this.offset;
      into.stepNode[i] = map[this.stepNode[i]!]!;
      const from = this.stepFrom[i]!;
      into.stepFrom[i] = from < 0 ? -1 : map[from]!;
    }
  }

  /** Takes `other`'s steps as they are (their node numbers are renumbered after). */
  #steps(other: JournalColumns): void {
    this.stepPos = other.stepPos;
    this.stepNode = other.stepNode;
    this.stepFrom = other.stepFrom;
    this.stepPrev = other.stepPrev;
    this.#stepFlags = other.#stepFlags;
    this.#stepKind = other.#stepKind;
    this.#stepSize = other.#stepSize;
    this.#stepMtime = other.#stepMtime;
    this.#stepBirth = other.#stepBirth;
    this.#stepIno = other.#stepIno;
    this.offset = other.offset;
    this.first = other.first;
    this.next = other.next;
  }

  /** Appends a step of node `n` at position `pos`; its number. */
  push(pos: number, n: number, image: Image, written: boolean, from: number): number {
    if (this.next - this.offset >= this.stepPos.length) this.#room();
    const s = this.next++;
    const i = s - this.offset;
    this.stepPos[i] = pos;
    this.stepNode[i] = n;
    this.stepFrom[i] = from;
    this.stepPrev[i] = this.lastStep[n]!;
    this.lastStep[n] = s;
    this.#stepFlags[i] = (image === null ? 0 : PRESENT) | (written ? WRITTEN : 0);
    if (image !== null) {
      this.#stepKind[i] = image.kind;
      this.#stepSize[i] = image.size;
      this.#stepMtime[i] = image.mtime;
      this.#stepBirth[i] = image.birth;
      this.#stepIno[i] = image.ino ?? NaN;
    }
    return s;
  }

  /** Step `s`'s position. */
  posOf(s: number): number {
    return this.stepPos[s - this.offset]!;
  }

  /** Step `s`'s image. */
  imageOf(s: number): Image {
    const i = s - this.offset;
    if ((this.#stepFlags[i]! & PRESENT) === 0) return null;
    return seen(
      this.#stepKind[i]!,
      this.#stepSize[i]!,
      this.#stepMtime[i]!,
      this.#stepBirth[i]!,
      this.#stepIno[i]!,
    );
  }

  /** Whether step `s` found its entry there. */
  presentAt(s: number): boolean {
    return (this.#stepFlags[s - this.offset]! & PRESENT) !== 0;
  }

  /** Whether an event wrote step `s`'s entry. */
  writtenAt(s: number): boolean {
    return (this.#stepFlags[s - this.offset]! & WRITTEN) !== 0;
  }

  /** The node step `s` moved from, or -1. */
  fromOf(s: number): number {
    return this.stepFrom[s - this.offset]!;
  }

  /** The step of node `n` before step `s` that is still kept, or -1. */
  prevOf(s: number): number {
    const p = this.stepPrev[s - this.offset]!;
    return p >= this.first ? p : -1;
  }

  /** Node `n`'s last step kept, or -1. */
  lastOf(n: number): number {
    const s = this.lastStep[n]!;
    return s >= this.first ? s : -1;
  }

  /** The first kept step whose position is above `pos` (`next` when none). */
  firstAbove(pos: number): number {
    const at = firstAbove(this.stepPos, this.first - this.offset, this.next - this.offset, pos);
    return at + this.offset;
  }

  /** Room for one more step: the dropped ones let go, else longer columns. */
  #room(): void {
    const kept = this.next - this.first;
    const shift = this.first - this.offset;
    const length = this.stepPos.length;
    const target = kept * 2 <= length ? length : length * 2;
    const columns = [
      "stepPos",
      "stepNode",
      "stepFrom",
      "stepPrev",
    ] as const;
    for (const name of columns) this[name] = moved(this[name], shift, kept, target);
    this.#stepFlags = moved(this.#stepFlags, shift, kept, target);
    this.#stepKind = moved(this.#stepKind, shift, kept, target);
    this.#stepSize = moved(this.#stepSize, shift, kept, target);
    this.#stepMtime = moved(this.#stepMtime, shift, kept, target);
    this.#stepBirth = moved(this.#stepBirth, shift, kept, target);
    this.#stepIno = moved(this.#stepIno, shift, kept, target);
    this.offset = this.first;
  }
}

/** `kept` elements of `column` from `shift` on, at the front of a column of `length`. */
function moved<T extends Column>(column: T, shift: number, kept: number, length: number): T {
  if (length === column.length) {
    column.copyWithin(0, shift, shift + kept);
    return column;
  }
  if (shift > 0) column.copyWithin(0, shift, shift + kept);
  return grown(column, length);
}

function seen(kind: number, size: number, mtime: number, birth: number, ino: number): Seen {
  return { kind, size, mtime, birth, ino: Number.isNaN(ino) ? null : ino };
}
