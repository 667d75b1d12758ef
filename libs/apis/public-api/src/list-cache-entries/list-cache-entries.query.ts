import type { EntrySelectionInput } from '../cache-entries/cache-entry-selection';

/** Default and largest page size of a cache entry listing, and the last page one may ask for (keeps offsets exact integers). */
export const CACHE_ENTRY_PAGE = { perPage: 50, perPageMax: 500, pageMax: 10_000_000 } as const;

/** One page of a website's cache entries whose URL starts with a prefix or matches a pattern. */
export class ListCacheEntries {
  constructor(
    readonly websiteId: string,
    readonly body: EntrySelectionInput & { readonly page?: number; readonly perPage?: number },
  ) {}
}

export interface CacheEntryRowView {
  readonly url: string;
  readonly dimensionId: number;
  /** The dimension's name; null for an entry of a dimension no longer configured. */
  readonly dimension: string | null;
  readonly kind: 'render' | 'bypass';
  readonly status: 'fresh' | 'stale';
  readonly statusCode: number;
  readonly renderedAt: string;
  readonly expiresAt: string;
  readonly bytes: number;
  readonly renderMs: number;
}

export interface CacheEntryListing {
  readonly data: CacheEntryRowView[];
  readonly meta: { readonly page: number; readonly perPage: number; readonly total: number; readonly totalPages: number };
}
