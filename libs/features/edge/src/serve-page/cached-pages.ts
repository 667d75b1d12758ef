import { CacheBodyGoneError, CacheHit, CacheStore } from '@bpc/cache-store';
import type { PageBodies, PageBody } from './page-bodies';

/** The cache store or a body file could not be read (not a page that is missing). */
export class CacheUnreadableError extends Error {}

/** A servable cache entry with its body. */
export interface CachedPage {
  readonly hit: CacheHit;
  readonly body: PageBody;
}

/** Cache entries with their bodies, read through the in-memory body cache. */
export class CachedPages {
  constructor(
    private readonly cache: CacheStore,
    private readonly bodies: PageBodies,
  ) {}

  /** The page's servable entry and body; throws CacheUnreadableError when the store or the body file cannot be read. */
  async get(hostId: number, url: string, dimensionId: number): Promise<CachedPage | undefined> {
    try {
      const hit = await this.cache.get(hostId, url, dimensionId);
      return hit && { hit, body: await this.bodies.of(hit) };
    } catch (error) {
      if (error instanceof CacheBodyGoneError) return undefined;
      throw new CacheUnreadableError('the cache could not be read', { cause: error });
    }
  }
}
