import { gzipSync } from 'node:zlib';
import type { CacheHit } from '@bpc/cache-store';

/** A served body with what the edge derives from it once. */
export interface PageBody {
  readonly raw: Buffer;
  readonly title: string;
  gzipped?: Buffer;
}

/**
 * What the map holds of a body file: the whole body, or for one over the
 * per-body limit its title and gzipped form only (its bytes are read again on
 * each hit, but neither parsed nor compressed again).
 */
type Kept = PageBody | { readonly raw?: undefined; readonly title: string; readonly gzipped: Buffer };

/** Bytes of bodies kept in memory (raw + gzipped). */
const MAX_BYTES = 64 * 1024 * 1024;
/** A raw body, or the gzipped form of a larger one, above this is never kept. */
const MAX_BODY_BYTES = MAX_BYTES / 8;

/**
 * Hot bodies in memory, least recently used evicted first. Keyed by the
 * entry's body path: every put writes a new file and a file never changes,
 * so a cached body can never be out of date for the entry that names it.
 *
 * Concurrency: first reads of one file share one read (and one title parse),
 * so a burst of requests for a page stores it once. The byte count is always
 * the sum of what the map holds: a gzipped form is counted only when its body
 * is held, never for a body that was evicted meanwhile or was never kept.
 */
export class PageBodies {
  private readonly bodies = new Map<string, Kept>();
  private readonly reading = new Map<string, Promise<PageBody>>();
  /** The body path each body was read from, to find what the map holds of it. */
  private readonly paths = new WeakMap<PageBody, string>();
  private bytes = 0;

  /** The entry's body; rejects with `CacheBodyGoneError` when its file is gone (treat as a miss). */
  async of(hit: CacheHit): Promise<PageBody> {
    const path = hit.entry.bodyPath;
    const kept = this.bodies.get(path);
    if (kept) {
      this.bodies.delete(path);
      this.bodies.set(path, kept);
      if (kept.raw) return kept;
    }
    let reading = this.reading.get(path);
    if (!reading) {
      reading = this.read(hit).finally(() => this.reading.delete(path));
      this.reading.set(path, reading);
    }
    return reading;
  }

  /** The body gzipped, compressed once per body file while the map holds it (or holds the gzipped form of a body over the limit). */
  gzipped(body: PageBody): Buffer {
    if (body.gzipped) return body.gzipped;
    const path = this.paths.get(body);
    const kept = path === undefined ? undefined : this.bodies.get(path);
    if (kept?.gzipped) {
      body.gzipped = kept.gzipped;
      return kept.gzipped;
    }
    const gzipped = gzipSync(body.raw);
    body.gzipped = gzipped;
    if (kept === body) {
      this.bytes += gzipped.length;
      this.evict();
    } else if (path !== undefined && !kept && body.raw.length > MAX_BODY_BYTES && gzipped.length <= MAX_BODY_BYTES) {
      this.keep(path, { title: body.title, gzipped });
    }
    return gzipped;
  }

  /** Bodies held and their bytes (raw + gzipped). */
  usage(): { entries: number; bytes: number } {
    return { entries: this.bodies.size, bytes: this.bytes };
  }

  private async read(hit: CacheHit): Promise<PageBody> {
    const path = hit.entry.bodyPath;
    const raw = await hit.readBody();
    // Only the title and gzipped form of a body over the limit can be held while its file is read.
    const kept = this.bodies.get(path);
    const body: PageBody = kept ? { raw, title: kept.title, gzipped: kept.gzipped } : { raw, title: titleOf(raw, hit.entry.headers['content-type']) };
    this.paths.set(body, path);
    if (raw.length <= MAX_BODY_BYTES) this.keep(path, body);
    return body;
  }

  private keep(path: string, kept: Kept): void {
    const replaced = this.bodies.get(path);
    if (replaced) {
      this.bodies.delete(path);
      this.bytes -= sizeOf(replaced);
    }
    this.bodies.set(path, kept);
    this.bytes += sizeOf(kept);
    this.evict();
  }

  private evict(): void {
    for (const [path, kept] of this.bodies) {
      if (this.bytes <= MAX_BYTES) return;
      this.bodies.delete(path);
      this.bytes -= sizeOf(kept);
    }
  }
}

function sizeOf(kept: Kept): number {
  return (kept.raw?.length ?? 0) + (kept.gzipped?.length ?? 0);
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
