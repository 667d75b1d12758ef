import type { TargetsInput } from '@bpc/domain';
import type { CacheInvalidatedPayload } from '@bpc/events';

/** Drop cache entries now; their files go in the background. */
export class InvalidateCache {
  constructor(
    readonly input: TargetsInput,
    readonly source: CacheInvalidatedPayload['source'],
  ) {}
}

export interface CacheInvalidatedResult {
  readonly host_id: number;
  readonly urls_count: number;
  readonly dimension_ids_count: number;
  /** Entries that existed and were dropped. */
  readonly entries_invalidated: number;
}
