import { DUE_TIE_ORDERS, QUEUE_RULE_TABLE, reached } from './queue-rule-table';

/** Something ordered by due time, then by key (unique within a list). */
export interface DueItem {
  readonly dueAt: number;
  readonly key: string;
}

const ties = DUE_TIE_ORDERS[QUEUE_RULE_TABLE.dueTies];

function compare(a: DueItem, b: DueItem): number {
  return a.dueAt - b.dueAt || ties.compare(a.key, b.key);
}

const lastOf = <T>(items: readonly T[]): T => items[items.length - 1];

/** First index from `lo` in a sorted array whose element is not before `item` (lower bound). */
function lowerBound(items: readonly DueItem[], item: DueItem, lo = 0): number {
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

/** First index of a sorted array whose element is due at or after `dueAt`. */
function firstDueFrom(items: readonly DueItem[], dueAt: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid].dueAt < dueAt) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `chunk` and `items[from, to)`, both in list order, merged into one array in list order. */
function merged<T extends DueItem>(chunk: readonly T[], items: readonly T[], from: number, to: number): T[] {
  const out: T[] = [];
  let i = 0;
  let j = from;
  while (i < chunk.length && j < to) out.push(compare(items[j], chunk[i]) < 0 ? items[j++] : chunk[i++]);
  while (i < chunk.length) out.push(chunk[i++]);
  while (j < to) out.push(items[j++]);
  return out;
}

/**
 * Items ordered by due time, then key (`QUEUE_RULE_TABLE.dueTies`), kept as
 * a list of sorted chunks (bounded size): insert and remove cost
 * O(log n + chunk), counting the due items O(chunks). A plain sorted array
 * would pay O(n) per insert at 100k entries; a heap could not count the due
 * items without a scan.
 *
 * A request's new entries come as one run (`insertRun`), all due at one
 * time, usually a time no listed item has (`now` when the request came).
 * Such a run is kept as it came, one chunk in its place by due time, and
 * sorted by key when the list is next read in order (`ordered`): the enqueue
 * of 20,000 entries answers without a sort, which its claims pay once.
 */
export class SortedDueList<T extends DueItem> {
  private chunks: T[][] = [];
  /** Chunks holding a run not sorted by key yet: all its items due at one time, which no other chunk holds. */
  private readonly unsorted = new Set<T[]>();
  private count = 0;

  constructor(private readonly maxChunk = 512) {}

  get size(): number {
    return this.count;
  }

  insert(item: T): void {
    this.ordered();
    this.count++;
    const last = lastOf(this.chunks);
    if (!last || compare(item, lastOf(last)) >= 0) return this.append(item);
    const index = this.chunkFor(item);
    const chunk = this.chunks[index];
    chunk.splice(lowerBound(chunk, item), 0, item);
    if (chunk.length > this.maxChunk) this.chunks.splice(index + 1, 0, chunk.splice(chunk.length >>> 1));
  }

  /**
   * Inserts items not in the list, in any order. Items all due at one time
   * that no sorted chunk holds are kept unsorted (see above); others are
   * sorted now and merged in one pass.
   */
  insertRun(items: readonly T[]): void {
    if (items.length === 0) return;
    const dueAt = items[0].dueAt;
    const oneTime = items.every((item) => item.dueAt === dueAt);
    this.count += items.length;
    if (oneTime && this.placeUnsorted(items, dueAt)) return;
    this.ordered();
    this.mergeSorted(oneTime ? ties.sort([...items]) : [...items].sort(compare));
  }

  /** Removes this very item (found by its due time and key); false when absent. */
  remove(item: T): boolean {
    const place = this.locate(item);
    if (!place) return false;
    const chunk = this.chunks[place.index];
    if (place.at === 0) chunk.shift();
    else chunk.splice(place.at, 1);
    if (chunk.length === 0) this.chunks.splice(place.index, 1);
    this.count--;
    return true;
  }

  /** Puts `next` in the place of this very item, whose due time and key it shares; false when the item is absent. */
  replace(item: T, next: T): boolean {
    const place = this.locate(item);
    if (place) this.chunks[place.index][place.at] = next;
    return place !== undefined;
  }

  /** How many items are due at `now` (their due time `reached`); unsorted runs count as they are. */
  countDue(now: number): number {
    let due = 0;
    for (const chunk of this.chunks) {
      if (reached(lastOf(chunk).dueAt, now)) {
        due += chunk.length;
        continue;
      }
      return due + dueCount(chunk, now);
    }
    return due;
  }

  /** Up to `limit` due items, earliest first, left in place. */
  firstDue(now: number, limit: number): T[] {
    this.ordered();
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
    this.ordered();
    for (const chunk of this.chunks) yield* chunk;
  }

  /** Empties the list; answers what it held, chunk by chunk, in no particular order (a purge needs no sort). */
  clear(): readonly (readonly T[])[] {
    const held = this.chunks;
    this.chunks = [];
    this.unsorted.clear();
    this.count = 0;
    return held;
  }

  private append(item: T): void {
    const last = lastOf(this.chunks);
    if (last && last.length < this.maxChunk) last.push(item);
    else this.chunks.push([item]);
  }

  /** Places a run due at `dueAt` as it came (see `insertRun`); false, changing nothing, when a sorted chunk holds that time. */
  private placeUnsorted(items: readonly T[], dueAt: number): boolean {
    // Due times alone find the place: an unsorted chunk is all due at one time.
    const index = firstDueFrom(this.chunks.map(lastOf), dueAt);
    const chunk = this.chunks[index] as T[] | undefined;
    if (chunk && this.unsorted.has(chunk) && chunk[0].dueAt === dueAt) {
      for (const item of items) chunk.push(item);
      return true;
    }
    const run = [...items];
    if (!chunk) {
      this.chunks.push(run);
    } else if (this.unsorted.has(chunk)) {
      this.chunks.splice(index, 0, run);
    } else {
      const at = firstDueFrom(chunk, dueAt);
      if (chunk[at].dueAt === dueAt) return false;
      this.chunks.splice(index, 1, ...(at > 0 ? [chunk.slice(0, at), run, chunk.slice(at)] : [run, chunk]));
    }
    this.unsorted.add(run);
    return true;
  }

  /** Sorts the runs kept as they came, each into chunks of the bounded size. */
  private ordered(): void {
    if (this.unsorted.size === 0) return;
    const chunks: T[][] = [];
    for (const chunk of this.chunks) {
      if (this.unsorted.has(chunk)) this.pushChunks(chunks, ties.sort(chunk));
      else chunks.push(chunk);
    }
    this.chunks = chunks;
    this.unsorted.clear();
  }

  /** Inserts sorted items, none listed, into a list with no unsorted run: appended when they all go last, else merged chunk by chunk. */
  private mergeSorted(items: readonly T[]): void {
    const last = lastOf(this.chunks);
    if (!last || compare(items[0], lastOf(last)) >= 0) return items.forEach((item) => this.append(item));
    const chunks: T[][] = [];
    let next = 0;
    this.chunks.forEach((chunk, c) => {
      // The items before this chunk's last one (the last chunk takes the rest).
      const end = c === this.chunks.length - 1 ? items.length : lowerBound(items, lastOf(chunk), next);
      if (end === next) chunks.push(chunk);
      else this.pushChunks(chunks, merged(chunk, items, next, end));
      next = end;
    });
    this.chunks = chunks;
  }

  private pushChunks(chunks: T[][], items: readonly T[]): void {
    for (let at = 0; at < items.length; at += this.maxChunk) chunks.push(items.slice(at, at + this.maxChunk));
  }

  /** Where this very item is: its chunk's index and its index in that chunk. */
  private locate(item: T): { index: number; at: number } | undefined {
    this.ordered();
    // A claim takes its entries from the front.
    if (this.chunks[0]?.[0] === item) return { index: 0, at: 0 };
    const index = this.chunkFor(item);
    const chunk = this.chunks[index];
    const at = chunk ? lowerBound(chunk, item) : -1;
    return chunk?.[at] === item ? { index, at } : undefined;
  }

  /** Index of the first chunk whose last item is not before `item` (the last chunk when none is). */
  private chunkFor(item: DueItem): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(lastOf(this.chunks[mid]), item) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
