/**
 * A bounded selection of the first `k` items in an order, so that memory does not
 * grow with the tree.
 *
 * @module
 */

/**
 * Keeps the `k` smallest items under `order` seen so far, in a binary heap whose top
 * is the largest item kept.
 *
 * @example
 * ```ts
 * const top = new TopK<number>(2, (a, b) => a - b);
 * [5, 1, 4, 2].forEach((n) => top.add(n));
 * top.sorted(); // [1, 2]
 * ```
 */
export class TopK<T> {
  readonly #k: number;
  readonly #order: (a: T, b: T) => number;
  readonly #heap: T[] = [];

  constructor(k: number, order: (a: T, b: T) => number) {
    this.#k = k;
    this.#order = order;
  }

  /** How many items are kept. */
  get size(): number {
    return this.#heap.length;
  }

  /** The last item kept once `k` are (the first one a new item must beat), else `undefined`. */
  get last(): T | undefined {
    return this.#heap.length === this.#k ? this.#heap[0] : undefined;
  }

  /** Whether `item` would be kept if added now. */
  wouldKeep(item: T): boolean {
    return this.#heap.length < this.#k || this.#order(item, this.#heap[0]!) < 0;
  }

  /** Offers an item; it is kept if it is among the `k` smallest so far. */
  add(item: T): void {
    const heap = this.#heap;
    if (heap.length < this.#k) {
      heap.push(item);
      this.#siftUp(heap.length - 1);
    } else if (this.#k > 0 && this.#order(item, heap[0]!) < 0) {
      heap[0] = item;
      this.#siftDown(0);
    }
  }

  /** The kept items, smallest first. */
  sorted(): T[] {
    return [...this.#heap].sort(this.#order);
  }

  #siftUp(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#order(heap[i]!, heap[parent]!) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  #siftDown(i: number): void {
    const heap = this.#heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let largest = i;
      if (left < heap.length && this.#order(heap[left]!, heap[largest]!) > 0) largest = left;
      if (right < heap.length && this.#order(heap[right]!, heap[largest]!) > 0) largest = right;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest]!, heap[i]!];
      i = largest;
    }
  }
}
