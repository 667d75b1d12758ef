import type { TargetsInput } from '@bpc/domain';
import type { CacheInvalidatedPayload } from '@bpc/events';

/** Drop cache entries now; their files go in the background. */
export class InvalidateCache {
  constructor(
    readonly input: TargetsInput,
    readonly source: CacheInvalidatedPayload['source'],
  ) {}
}

/** What an invalidation dropped; each API words it in its own contract. */
export interface CacheInvalidatedResult {
  readonly hostId: number;
  /** URLs as the request carried them, before normalising and de-duplicating. */
  readonly urlsCount: number;
  readonly dimensionIdsCount: number;
  /** Entries that existed and were dropped. */
  readonly entriesInvalidated: number;
}
