import { reached } from './queue-rule-table';

/** Something ordered by due time; `seq` breaks ties so equal due times stay first-in first-out. */
export interface DueItem {
  readonly dueAt: number;
  readonly seq: number;
}

function compare(a: DueItem, b: DueItem): number {
  return a.dueAt - b.dueAt || a.seq - b.seq;
}

/** First index in a sorted array whose element is not before `item` (lower bound). */
function lowerBound<T extends DueItem>(items: readonly T[], item: DueItem): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(items[mid], item) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of leading elements of a sorted array that are due at `now`. */
function dueCount(items: readonly DueItem[], now: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (reached(items[mid].dueAt, now)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Items ordered by due time, kept as a list of sorted chunks (bounded size):
 * insert and remove cost O(log n + chunk), counting the due items O(chunks),
 * and appending in due order (the common case: one request, one due time) is
 * O(1). A plain sorted array would pay O(n) per insert at 100k entries; a
 * heap could not count the due items without a scan.
 */
export class SortedDueList<T extends DueItem> {
  private readonly chunks: T[][] = [];
  private count = 0;

  constructor(private readonly maxChunk = 512) {}

  get size(): number {
    return this.count;
  }

  insert(item: T): void {
    this.count++;
    const last = this.chunks[this.chunks.length - 1];
    if (!last || compare(item, last[last.length - 1]) >= 0) return this.append(item);
    const index = this.chunkFor(item);
    const chunk = this.chunks[index];
    chunk.splice(lowerBound(chunk, item), 0, item);
    if (chunk.length > this.maxChunk) this.chunks.splice(index + 1, 0, chunk.splice(chunk.length >>> 1));
  }

  /** Removes this very item (found by its due time and sequence); false when absent. */
  remove(item: T): boolean {
    const index = this.chunkFor(item);
    const chunk = this.chunks[index];
    if (!chunk) return false;
    const at = lowerBound(chunk, item);
    if (chunk[at] !== item) return false;
    chunk.splice(at, 1);
    if (chunk.length === 0) this.chunks.splice(index, 1);
    this.count--;
    return true;
  }

  /** How many items are due at `now` (their due time `reached`). */
  countDue(now: number): number {
    let due = 0;
    for (const chunk of this.chunks) {
      if (reached(chunk[chunk.length - 1].dueAt, now)) {
        due += chunk.length;
        continue;
      }
      return due + dueCount(chunk, now);
    }
    return due;
  }

  /** Up to `limit` due items, earliest first, left in place. */
  firstDue(now: number, limit: number): T[] {
    const due: T[] = [];
    for (const chunk of this.chunks) {
      for (const item of chunk) {
        if (due.length >= limit || !reached(item.dueAt, now)) return due;
        due.push(item);
      }
    }
    return due;
  }

  *values(): IterableIterator<T> {
    for (const chunk of this.chunks) yield* chunk;
  }

  clear(): void {
    this.chunks.length = 0;
    this.count = 0;
  }

  private append(item: T): void {
    const last = this.chunks[this.chunks.length - 1];
    if (last && last.length < this.maxChunk) last.push(item);
    else this.chunks.push([item]);
  }

  /** Index of the first chunk whose last item is not before `item` (the last chunk when none is). */
  private chunkFor(item: DueItem): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid];
      if (compare(chunk[chunk.length - 1], item) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
