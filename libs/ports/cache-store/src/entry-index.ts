/**
 * The order in which a host's entries are listed: by URL, then dimension.
 * An index member is `<url>\0<dimensionId, 10 digits>`: NUL sorts before any
 * URL character, so the entries of one URL sit together and ahead of longer
 * URLs that extend it, and the padded id sorts dimensions by number. Both
 * adapters keep these members sorted (Redis: a sorted set of equal scores,
 * compared as bytes; memory: `SortedStrings`, compared as UTF-16 code units;
 * the two orders agree on the ASCII of normalised URLs).
 */
export function indexMember(url: string, dimensionId: number): string {
  return `${url}\0${String(dimensionId).padStart(10, '0')}`;
}

export function parseIndexMember(member: string): { url: string; dimensionId: number } {
  const nul = member.lastIndexOf('\0');
  return { url: member.slice(0, nul), dimensionId: Number(member.slice(nul + 1)) };
}

/**
 * The smallest string above every string starting with `prefix` (its last
 * code point plus one), undefined when there is none (an empty prefix, or
 * one of only U+10FFFF): the exclusive end of a prefix range.
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last >= 0x10ffff) continue;
    // The next code point, stepping over the surrogate block (not characters of their own).
    const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
    return points.join('') + String.fromCodePoint(next);
  }
  return undefined;
}

const BLOCK = 1_000;

/**
 * A sorted set of strings as a list of sorted blocks of at most 2 × 1,000:
 * add, delete and rank cost a binary search plus a splice within one block,
 * so hundreds of thousands of members stay cheap to change (a flat sorted
 * array would move them all on each insert) and to list from any position.
 */
export class SortedStrings {
  private blocks: string[][] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds `value`; false when it was already there. */
  add(value: string): boolean {
    if (this.blocks.length === 0) {
      this.blocks.push([value]);
      this.count = 1;
      return true;
    }
    const b = this.blockFor(value);
    const block = this.blocks[b];
    const i = lowerBound(block, value);
    if (block[i] === value) return false;
    block.splice(i, 0, value);
    this.count += 1;
    if (block.length > 2 * BLOCK) this.blocks.splice(b, 1, block.slice(0, BLOCK), block.slice(BLOCK));
    return true;
  }

  /** Removes `value`; false when it was not there. */
  delete(value: string): boolean {
    if (this.blocks.length === 0) return false;
    const b = this.blockFor(value);
    const block = this.blocks[b];
    const i = lowerBound(block, value);
    if (block[i] !== value) return false;
    block.splice(i, 1);
    this.count -= 1;
    if (block.length === 0) this.blocks.splice(b, 1);
    return true;
  }

  /** How many members are below `value`. */
  rank(value: string): number {
    let before = 0;
    for (const block of this.blocks) {
      if (block[block.length - 1] < value) {
        before += block.length;
        continue;
      }
      return before + lowerBound(block, value);
    }
    return before;
  }

  /** Members from position `start` on, in order (stop iterating to stop the walk). */
  *from(start: number): Generator<string> {
    let skip = Math.max(0, start);
    for (const block of this.blocks) {
      if (skip >= block.length) {
        skip -= block.length;
        continue;
      }
      for (let i = skip; i < block.length; i++) yield block[i];
      skip = 0;
    }
  }

  /** The block `value` belongs in: the first whose last member is not below it, else the last. */
  private blockFor(value: string): number {
    let low = 0;
    let high = this.blocks.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      const block = this.blocks[mid];
      if (block[block.length - 1] < value) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Walks a selection's index members in order (the caller feeds those within
 * the prefix range): counts entries and distinct URLs that pass the filter,
 * keeps the members of the asked page and the first URLs. The filter runs
 * once per URL, as a URL's members come one after the other.
 */
export class SelectionTally {
  entries = 0;
  urls = 0;
  readonly pageMembers: string[] = [];
  readonly firstUrls: string[] = [];
  private lastUrl: string | undefined;
  private lastKept = false;

  constructor(
    private readonly filter: ((url: string) => boolean) | undefined,
    private readonly page: { readonly offset: number; readonly limit: number } = { offset: 0, limit: 0 },
    private readonly urlLimit = 0,
  ) {}

  add(member: string): void {
    const url = member.slice(0, member.lastIndexOf('\0'));
    if (url !== this.lastUrl) {
      this.lastUrl = url;
      this.lastKept = !this.filter || this.filter(url);
      if (this.lastKept) {
        this.urls += 1;
        if (this.firstUrls.length < this.urlLimit) this.firstUrls.push(url);
      }
    }
    if (!this.lastKept) return;
    if (this.entries >= this.page.offset && this.pageMembers.length < this.page.limit) this.pageMembers.push(member);
    this.entries += 1;
  }
}

/** Refuses a malformed page before anything is read. */
export function assertPage(offset: number, limit: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new Error(`invalid cache store call: offset must be a non-negative integer, got ${String(offset)}`);
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`invalid cache store call: limit must be a non-negative integer, got ${String(limit)}`);
}
