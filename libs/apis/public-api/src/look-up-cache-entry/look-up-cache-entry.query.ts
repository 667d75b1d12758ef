/** What is cached for one URL of a website, in every configured dimension, and how often bots were served it. */
export class LookUpCacheEntry {
  constructor(
    readonly websiteId: string,
    readonly accountId: string,
    /** The `url` query parameter as it came (validated by the handler). */
    readonly url: unknown,
    /** When the request arrived (epoch ms): the hits statement's time budget counts from it. */
    readonly receivedAtMs: number,
  ) {}
}

export interface CacheEntryDimensionView {
  readonly dimensionId: number;
  readonly dimension: string;
  readonly cached: boolean;
  readonly kind?: 'render' | 'bypass';
  readonly status?: 'fresh' | 'stale';
  readonly statusCode?: number;
  readonly renderedAt?: string;
  readonly expiresAt?: string;
  readonly bytes?: number;
  readonly renderMs?: number;
  readonly lastServedAt: string | null;
  readonly hits: number;
}

export interface CacheEntryLookup {
  /** The URL as cache keys spell it (normalised). */
  readonly url: string;
  readonly entries: CacheEntryDimensionView[];
}
