import { gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { CacheHit } from '@bpc/cache-store';

/** A served body with what the edge derives from it once. */
export interface PageBody {
  readonly raw: Buffer;
  readonly title: string;
  gzipped?: Buffer;
}

/**
 * What the cache holds of a body: the whole body, or for one over the
 * per-body limit its title and gzipped form only (its bytes are read again on
 * each hit, but neither parsed nor compressed again).
 */
type Kept = PageBody | { readonly raw?: undefined; readonly title: string; readonly gzipped: Buffer };

/** Bytes of bodies kept in memory (raw + gzipped) unless configured (`edge.body_cache_mb`). */
export const DEFAULT_BODY_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Hot bodies in memory, least recently used evicted first (`lru-cache`,
 * sized in bytes). Keyed by the entry's body path: every put writes a new
 * object and an object never changes, so a cached body can never be out of
 * date for the entry that names it, and a hit on a kept body needs neither
 * the cache's object store nor a read (it serves while the store is down).
 *
 * Concurrency: first reads of one body share one read (and one title parse),
 * so a burst of requests for a page stores it once. The byte count is always
 * the sum of what the cache holds: a gzipped form is counted only when its
 * body is held (its entry is set again, which sizes it again), never for a
 * body that was evicted meanwhile or was never kept.
 */
export class PageBodies {
  private readonly bodies: LRUCache<string, Kept>;
  private readonly reading = new Map<string, Promise<PageBody>>();
  /** The body path each body was read from, to find what the cache holds of it. */
  private readonly paths = new WeakMap<PageBody, string>();
  /** A raw body, or the gzipped form of a larger one, above this is never kept. */
  private readonly maxBodyBytes: number;

  constructor(maxBytes = DEFAULT_BODY_CACHE_BYTES) {
    this.maxBodyBytes = Math.floor(maxBytes / 8);
    this.bodies = new LRUCache<string, Kept>({ maxSize: maxBytes, sizeCalculation: (kept) => Math.max(1, (kept.raw?.length ?? 0) + (kept.gzipped?.length ?? 0)) });
  }

  /** The entry's body; rejects with `CacheBodyGoneError` when it is gone (treat as a miss). */
  async of(hit: CacheHit): Promise<PageBody> {
    const path = hit.entry.bodyPath;
    const kept = this.bodies.get(path);
    if (kept?.raw) return kept;
    let reading = this.reading.get(path);
    if (!reading) {
      reading = this.read(hit).finally(() => this.reading.delete(path));
      this.reading.set(path, reading);
    }
    return reading;
  }

  /** The body gzipped, compressed once per body while the cache holds it (or holds the gzipped form of a body over the limit). */
  gzipped(body: PageBody): Buffer {
    if (body.gzipped) return body.gzipped;
    const path = this.paths.get(body);
    const kept = path === undefined ? undefined : this.bodies.peek(path);
    if (kept?.gzipped) {
      body.gzipped = kept.gzipped;
      return kept.gzipped;
    }
    const gzipped = gzipSync(body.raw);
    body.gzipped = gzipped;
    if (kept === body) this.bodies.set(path!, body);
    else if (path !== undefined && !kept && body.raw.length > this.maxBodyBytes && gzipped.length <= this.maxBodyBytes) this.bodies.set(path, { title: body.title, gzipped });
    return gzipped;
  }

  /** Bodies held and their bytes (raw + gzipped). */
  usage(): { entries: number; bytes: number } {
    return { entries: this.bodies.size, bytes: this.bodies.calculatedSize };
  }

  private async read(hit: CacheHit): Promise<PageBody> {
    const path = hit.entry.bodyPath;
    const raw = await hit.readBody();
    // Only the title and gzipped form of a body over the limit can be held while its body is read.
    const kept = this.bodies.peek(path);
    const body: PageBody = kept ? { raw, title: kept.title, gzipped: kept.gzipped } : { raw, title: titleOf(raw, hit.entry.headers['content-type']) };
    this.paths.set(body, path);
    if (raw.length <= this.maxBodyBytes) this.bodies.set(path, body);
    return body;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' };

/**
 * The page's `<title>` (first 64 KB of an HTML body), whitespace collapsed, at most 1000 characters; empty when none.
 *
 * Same result as the first match of `/<title[^>]*>([\s\S]*?)<\/title\s*>/i`, found in linear time (that regex took
 * about half a second on 64 KB of repeated `<title`). Only the first `<title` can start a match: a later one ends its
 * opening tag at the same `>` or a later one, so it cannot find a closing tag the first one did not.
 */
export function titleOf(body: Buffer, contentType: string | undefined): string {
  if (contentType && !/html/i.test(contentType)) return '';
  const head = body.subarray(0, 65_536).toString('utf8');
  const open = head.search(/<title/i);
  if (open < 0) return '';
  const start = head.indexOf('>', open + '<title'.length) + 1;
  if (start === 0) return '';
  const close = /<\/title\s*>/gi;
  close.lastIndex = start;
  const end = close.exec(head)?.index;
  if (end === undefined) return '';
  return head
    .slice(start, end)
    .replace(/&(amp|lt|gt|quot|apos|#39|nbsp);/g, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 1000);
}
