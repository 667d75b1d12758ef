import { gzipSync } from 'node:zlib';
import type { CacheHit } from '@bpc/cache-store';

/** A served body with what the edge derives from it once. */
export interface PageBody {
  readonly raw: Buffer;
  readonly title: string;
  gzipped?: Buffer;
}

/** Bytes of bodies kept in memory (raw + gzipped). */
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * Hot bodies in memory, least recently used evicted first. Keyed by the
 * entry's body path: every put writes a new file and a file never changes,
 * so a cached body can never be out of date for the entry that names it.
 */
export class PageBodies {
  private readonly bodies = new Map<string, PageBody>();
  private bytes = 0;

  /** The entry's body; rejects with `CacheBodyGoneError` when its file is gone (treat as a miss). */
  async of(hit: CacheHit): Promise<PageBody> {
    const path = hit.entry.bodyPath;
    const cached = this.bodies.get(path);
    if (cached) {
      this.bodies.delete(path);
      this.bodies.set(path, cached);
      return cached;
    }
    const raw = await hit.readBody();
    const body: PageBody = { raw, title: titleOf(raw, hit.entry.headers['content-type']) };
    this.remember(path, body, raw.length);
    return body;
  }

  gzipped(body: PageBody): Buffer {
    if (!body.gzipped) {
      body.gzipped = gzipSync(body.raw);
      this.bytes += body.gzipped.length;
      this.evict();
    }
    return body.gzipped;
  }

  private remember(path: string, body: PageBody, size: number): void {
    if (size > MAX_BYTES / 8) return;
    this.bodies.set(path, body);
    this.bytes += size;
    this.evict();
  }

  private evict(): void {
    for (const [path, body] of this.bodies) {
      if (this.bytes <= MAX_BYTES) return;
      this.bodies.delete(path);
      this.bytes -= body.raw.length + (body.gzipped?.length ?? 0);
    }
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' };

/** The page's `<title>` (first 64 KB of an HTML body), whitespace collapsed, at most 1000 characters; empty when none. */
export function titleOf(body: Buffer, contentType: string | undefined): string {
  if (contentType && !/html/i.test(contentType)) return '';
  const head = body.subarray(0, 65_536).toString('utf8');
  const match = /<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(head);
  if (!match) return '';
  return match[1]
    .replace(/&(amp|lt|gt|quot|apos|#39|nbsp);/g, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 1000);
}
