import type { EntrySelectionInput } from '../cache-entries/cache-entry-selection';

/**
 * Most entries one matching invalidation drops: a CacheInvalidated event
 * carries the URLs (at most 10,000, the daemon's own bound), and a bigger
 * sweep is better split by the caller than recorded as one huge event.
 */
export const MAX_MATCHING_INVALIDATION = 10_000;

/** Drop the cache entries of a website whose URL starts with a prefix or matches a pattern (or only count them: `dryRun`). */
export class InvalidateMatchingEntries {
  constructor(
    readonly websiteId: string,
    readonly body: EntrySelectionInput & { readonly dryRun?: boolean },
  ) {}
}

export interface MatchingEntriesInvalidated {
  readonly dryRun: boolean;
  /** Entries (URL × dimension) selected when the call ran. */
  readonly entriesMatched: number;
  /** Distinct URLs among them. */
  readonly urlsMatched: number;
  /** Entries the cache projection dropped; 0 on a dry run. */
  readonly entriesInvalidated: number;
}
