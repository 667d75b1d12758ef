/**
 * A ring buffer of at most `capacity` items. Pushing onto a full deque drops
 * the oldest item and says so, in O(1), so a long event-log outage under load
 * costs no copying.
 */
export class BoundedDeque<T> {
  private items: (T | undefined)[];
  private head = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(Math.min(capacity, 1024));
  }

  get size(): number {
    return this.count;
  }

  /** Appends at the back; answers the number of items dropped from the front (0 or 1). */
  push(item: T): number {
    let dropped = 0;
    if (this.count === this.capacity) {
      this.shift();
      dropped = 1;
    }
    if (this.count === this.items.length) this.grow();
    this.items[(this.head + this.count) % this.items.length] = item;
    this.count += 1;
    return dropped;
  }

  /** Puts items back at the front (a batch the log refused), oldest first; answers how many did not fit and were dropped (the oldest). */
  unshiftAll(batch: readonly T[]): number {
    const room = this.capacity - this.count;
    const kept = batch.slice(Math.max(0, batch.length - room));
    for (let i = kept.length - 1; i >= 0; i -= 1) {
      if (this.count === this.items.length) this.grow();
      this.head = (this.head - 1 + this.items.length) % this.items.length;
      this.items[this.head] = kept[i];
      this.count += 1;
    }
    return batch.length - kept.length;
  }

  /** Removes and answers up to `max` items from the front. */
  take(max: number): T[] {
    const out: T[] = [];
    while (out.length < max && this.count > 0) out.push(this.shift()!);
    return out;
  }

  private shift(): T | undefined {
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.items.length;
    this.count -= 1;
    return item;
  }

  private grow(): void {
    const size = Math.min(this.capacity, this.items.length * 2);
    const next = new Array<T | undefined>(size);
    for (let i = 0; i < this.count; i += 1) next[i] = this.items[(this.head + i) % this.items.length];
    this.items = next;
    this.head = 0;
  }
}
