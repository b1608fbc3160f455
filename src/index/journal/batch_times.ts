/**
 * The batches a journal keeps (contract §24): each one's position, when it was applied
 * and how many steps it made, in columns outside the heap, oldest first; what the
 * positions of times and the times of positions are, and dropping the oldest.
 *
 * @module
 */
import { type Column, firstAbove, grown } from "../store/mod.ts";

/** The batches kept, oldest first. */
export class BatchTimes {
  #pos = new Int32Array(256);
  #ms = new Float64Array(256);
  #steps = new Int32Array(256);
  #head = 0;
  #tail = 0;

  /** Bytes held outside the heap. */
  get bytes(): number {
    return this.#pos.byteLength + this.#ms.byteLength + this.#steps.byteLength;
  }

  /** Forgets every batch. */
  clear(): void {
    this.#head = this.#tail = 0;
  }

  /** Keeps a batch (times never go back: a clock set back counts as no time passing). */
  add(pos: number, ms: number, steps: number): void {
    if (this.#tail === this.#pos.length) this.#room();
    const last = this.#tail > this.#head ? this.#ms[this.#tail - 1]! : -Infinity;
    this.#pos[this.#tail] = pos;
    this.#ms[this.#tail] = Math.max(ms, last);
    this.#steps[this.#tail++] = steps;
  }

  /** When the oldest batch kept was applied, if any. */
  oldestMs(): number | undefined {
    return this.#tail > this.#head ? this.#ms[this.#head] : undefined;
  }

  /** The position of the first batch applied after `ms`, else `fallback`. */
  firstPos(fallback: number, ms = Infinity): number {
    const i = this.#firstAfter(ms);
    return i < this.#tail ? this.#pos[i]! : fallback;
  }

  /** The position of the last batch applied at or before `ms`, or `null` when none. */
  lastAtOrBefore(ms: number): number | null {
    const i = this.#firstAfter(ms);
    return i > this.#head ? this.#pos[i - 1]! : null;
  }

  /** When the last batch at or before position `pos` was applied, or `null` when none. */
  timeOf(pos: number): number | null {
    const i = firstAbove(this.#pos, this.#head, this.#tail, pos);
    return i > this.#head ? this.#ms[i - 1]! : null;
  }

  /**
   * Drops the oldest batches while the steps kept are more than `keep` or a batch is older
   * than `oldestMs`; the last dropped (its position and time), or `null` when none was.
   */
  dropFront(keep: number, oldestMs: number): { pos: number; ms: number } | null {
    let steps = 0;
    for (let i = this.#head; i < this.#tail; i++) steps += this.#steps[i]!;
    let i = this.#head;
    while (i < this.#tail && (steps > keep || this.#ms[i]! < oldestMs)) steps -= this.#steps[i++]!;
    if (i === this.#head) return null;
    this.#head = i;
    return { pos: this.#pos[i - 1]!, ms: this.#ms[i - 1]! };
  }

  /** The index of the first batch applied after `ms` (`tail` when none). */
  #firstAfter(ms: number): number {
    return firstAbove(this.#ms, this.#head, this.#tail, ms);
  }

  #room(): void {
    const kept = this.#tail - this.#head;
    const length = kept * 2 <= this.#pos.length ? this.#pos.length : this.#pos.length * 2;
    const moved = <T extends Column>(column: T): T => {
      column.copyWithin(0, this.#head, this.#tail);
      return length === column.length ? column : grown(column, length);
    };
    this.#pos = moved(this.#pos);
    this.#ms = moved(this.#ms);
    this.#steps = moved(this.#steps);
    this.#tail = kept;
    this.#head = 0;
  }
}
